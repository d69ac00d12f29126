// A persistent map of string keys: a hash array mapped trie (32 children per
// level, about three levels at 20,000 pools). A block step changes the few
// pools it touched and shares every other part with the map of the block
// before, so its cost follows the pools changed, not the market's size, and a
// World a reader still holds never changes. It reads as a ReadonlyMap.
//
// Changes are made on a draft (`edit`): nodes the draft copied are its own and
// changed in place until `done`, so a step touching 200 pools copies each node
// on their paths once.

/**
 * A node of the trie: per child present (one bit of `bitmap` each, by 5 bits of the key's hash
 * at this depth) two slots: a key and its value, null and a deeper Branch, or undefined and a
 * Collision of keys that hash alike. Entries sit in their parent's slots: a look-up reads
 * two arrays per level and no entry objects.
 */
class Branch {
  constructor(
    public bitmap: number,
    public slots: unknown[],
    /** the draft that made this node and may change it in place */
    public owner: Owner | undefined,
  ) {}
}

/** keys whose hashes are equal: never changed in place */
class Collision {
  constructor(
    readonly hash: number,
    readonly keys: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

type Owner = { open: boolean }

const MISSING: unique symbol = Symbol("missing")

// seeded per process: pool addresses are chosen by whoever creates a pool, the hash's collisions are not
const SEED = (Math.random() * 0x1_0000_0000) >>> 0

/**
 * FNV-1a, from the process's seed, over the key's length and its first and last 10 code units
 * (all of a shorter key): a pool's key (an address, a V4 pool id) is random in its first
 * characters, a vanity address in its last. Keys alike at both ends share a Collision.
 */
const hashOf = (key: string): number => {
  const n = key.length
  let h = Math.imul(SEED ^ 0x811c9dc5 ^ n, 0x01000193)
  if (n <= 20) {
    for (let i = 0; i < n; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  } else {
    for (let i = 0; i < 10; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
    for (let i = n - 10; i < n; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  }
  return h >>> 0
}

const popcount = (x: number): number => {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  x = (x + (x >>> 4)) & 0x0f0f0f0f
  return Math.imul(x, 0x01010101) >>> 24
}

const find = (root: Branch, key: string): unknown => {
  const hash = hashOf(key)
  let node = root
  for (let shift = 0; ; shift += 5) {
    const bit = 1 << ((hash >>> shift) & 31)
    if ((node.bitmap & bit) === 0) return MISSING
    const at = 2 * popcount(node.bitmap & (bit - 1))
    const k = node.slots[at]
    if (typeof k === "string") return k === key ? node.slots[at + 1] : MISSING
    if (k === null) {
      node = node.slots[at + 1] as Branch
      continue
    }
    const c = node.slots[at + 1] as Collision
    const i = c.keys.indexOf(key)
    return i >= 0 ? c.values[i] : MISSING
  }
}

/** `node` as the draft's own: itself when the draft made it, else a copy the draft owns */
const owned = (node: Branch, owner: Owner): Branch => (node.owner === owner ? node : new Branch(node.bitmap, node.slots.slice(), owner))

/**
 * A node holding two entries with different hashes that agree above `shift`: each a key and
 * its value, or (key undefined) a Collision.
 */
const two = (shift: number, ha: number, ka: string | undefined, va: unknown, hb: number, kb: string | undefined, vb: unknown, owner: Owner): Branch => {
  const fa = (ha >>> shift) & 31
  const fb = (hb >>> shift) & 31
  if (fa === fb) return new Branch(1 << fa, [null, two(shift + 5, ha, ka, va, hb, kb, vb, owner)], owner)
  return new Branch((1 << fa) | (1 << fb), fa < fb ? [ka, va, kb, vb] : [kb, vb, ka, va], owner)
}

/** `node` with `key` set to `value`: the same node when nothing changed */
const assoc = (node: Branch, shift: number, hash: number, key: string, value: unknown, owner: Owner, size: { n: number }): Branch => {
  const bit = 1 << ((hash >>> shift) & 31)
  const at = 2 * popcount(node.bitmap & (bit - 1))
  if ((node.bitmap & bit) === 0) {
    const own = owned(node, owner)
    own.slots.splice(at, 0, key, value)
    own.bitmap |= bit
    size.n++
    return own
  }
  const k = node.slots[at] as string | null | undefined
  const v = node.slots[at + 1]
  if (k === key) {
    if (v === value) return node
    const own = owned(node, owner)
    own.slots[at + 1] = value
    return own
  }
  let next: Branch | Collision
  if (typeof k === "string") {
    const kh = hashOf(k)
    next = kh === hash ? new Collision(hash, [k, key], [v, value]) : two(shift + 5, kh, k, v, hash, key, value, owner)
    size.n++
  } else if (k === null) {
    next = assoc(v as Branch, shift + 5, hash, key, value, owner, size)
    if (next === v) return node
  } else {
    const c = v as Collision
    if (c.hash === hash) {
      const i = c.keys.indexOf(key)
      if (i >= 0 && c.values[i] === value) return node
      if (i >= 0) next = new Collision(hash, c.keys, c.values.map((x, j) => (j === i ? value : x)))
      else {
        next = new Collision(hash, [...c.keys, key], [...c.values, value])
        size.n++
      }
    } else {
      next = two(shift + 5, c.hash, undefined, c, hash, key, value, owner)
      size.n++
    }
  }
  const own = owned(node, owner)
  own.slots[at] = next instanceof Branch ? null : undefined
  own.slots[at + 1] = next
  return own
}

/** `node` without `key`: the same node when it was not there, undefined when nothing is left below the root */
const dissoc = (node: Branch, shift: number, hash: number, key: string, owner: Owner, size: { n: number }): Branch | undefined => {
  const bit = 1 << ((hash >>> shift) & 31)
  if ((node.bitmap & bit) === 0) return node
  const at = 2 * popcount(node.bitmap & (bit - 1))
  const k = node.slots[at]
  const v = node.slots[at + 1]
  if (typeof k === "string") {
    if (k !== key) return node
    size.n--
    return removed(node, at, bit, shift, owner)
  }
  if (k === null) {
    const next = dissoc(v as Branch, shift + 5, hash, key, owner, size)
    if (next === v) return node
    if (next === undefined) return removed(node, at, bit, shift, owner)
    const own = owned(node, owner)
    own.slots[at + 1] = next
    return own
  }
  const c = v as Collision
  const i = c.hash === hash ? c.keys.indexOf(key) : -1
  if (i < 0) return node
  size.n--
  const own = owned(node, owner)
  if (c.keys.length === 2) {
    // the one key left sits in the slot itself
    own.slots[at] = c.keys[1 - i]
    own.slots[at + 1] = c.values[1 - i]
  } else own.slots[at + 1] = new Collision(hash, c.keys.filter((_, j) => j !== i), c.values.filter((_, j) => j !== i))
  return own
}

const removed = (node: Branch, at: number, bit: number, shift: number, owner: Owner): Branch | undefined => {
  const own = owned(node, owner)
  own.slots.splice(at, 2)
  own.bitmap &= ~bit
  return own.bitmap === 0 && shift > 0 ? undefined : own
}

function forEachEntry(node: Branch, f: (key: string, value: unknown) => void): void {
  const slots = node.slots
  for (let i = 0; i < slots.length; i += 2) {
    const k = slots[i] as string | null | undefined
    if (typeof k === "string") f(k, slots[i + 1])
    else {
      const child = slots[i + 1]
      if (k === null) forEachEntry(child as Branch, f)
      else {
        const c = child as Collision
        for (let j = 0; j < c.keys.length; j++) f(c.keys[j]!, c.values[j])
      }
    }
  }
}

/** the entries, keys or values in one array: walking the trie once is faster than stepping a generator through it */
const collect = <A>(root: Branch, f: (key: string, value: unknown) => A): A[] => {
  const out: A[] = []
  forEachEntry(root, (k, v) => void out.push(f(k, v)))
  return out
}

const EMPTY_ROOT = new Branch(0, [], undefined)

/** A trie read as a ReadonlyMap: a map and its draft alike. */
abstract class TrieReader<V> implements ReadonlyMap<string, V> {
  protected abstract readonly root: Branch
  abstract readonly size: number
  abstract readonly [Symbol.toStringTag]: string

  get(key: string): V | undefined {
    const v = find(this.root, key)
    return v === MISSING ? undefined : (v as V)
  }

  has(key: string): boolean {
    return find(this.root, key) !== MISSING
  }

  forEach(f: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    forEachEntry(this.root, (k, v) => f.call(thisArg, v as V, k, this))
  }

  entries(): MapIterator<[string, V]> {
    return collect(this.root, (k, v): [string, V] => [k, v as V]).values()
  }

  keys(): MapIterator<string> {
    return collect(this.root, (k) => k).values()
  }

  values(): MapIterator<V> {
    return collect(this.root, (_, v) => v as V).values()
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries()
  }
}

/** A map of string keys that never changes: `edit` gives a draft of the next one. */
export class PersistentMap<V> extends TrieReader<V> {
  readonly [Symbol.toStringTag] = "PersistentMap"
  /** the map of a trie's root (`empty`, `from` and a draft's `done` make them) */
  constructor(
    protected readonly root: Branch,
    readonly size: number,
  ) {
    super()
  }

  static empty<V>(): PersistentMap<V> {
    return new PersistentMap<V>(EMPTY_ROOT, 0)
  }

  /** `map` itself when it is one, else its entries in one */
  static from<V>(map: ReadonlyMap<string, V>): PersistentMap<V> {
    if (map instanceof PersistentMap) return map as PersistentMap<V>
    const draft = PersistentMap.empty<V>().edit()
    for (const [k, v] of map) draft.set(k, v)
    return draft.done()
  }

  /** a draft of the next map: changed in place, sharing what it leaves alone, until `done` */
  edit(): MapDraft<V> {
    return new MapDraft(this.root, this.size)
  }
}

/** The next PersistentMap being made: read and changed like a Map, then `done`. */
export class MapDraft<V> extends TrieReader<V> {
  readonly [Symbol.toStringTag] = "MapDraft"
  private readonly owner: Owner = { open: true }
  private readonly count: { n: number }

  constructor(
    protected root: Branch,
    size: number,
  ) {
    super()
    this.count = { n: size }
  }

  get size(): number {
    return this.count.n
  }

  set(key: string, value: V): this {
    this.open()
    this.root = assoc(this.root, 0, hashOf(key), key, value, this.owner, this.count)
    return this
  }

  /** true when the key was there */
  delete(key: string): boolean {
    this.open()
    const before = this.count.n
    this.root = dissoc(this.root, 0, hashOf(key), key, this.owner, this.count) ?? EMPTY_ROOT
    return this.count.n < before
  }

  /** the map as drafted; the draft is closed */
  done(): PersistentMap<V> {
    this.open()
    this.owner.open = false
    return new PersistentMap(this.root, this.count.n)
  }

  private open(): void {
    if (!this.owner.open) throw new Error("MapDraft: changed after done()")
  }
}
