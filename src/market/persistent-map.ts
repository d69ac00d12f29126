// A persistent map of string keys: a hash array mapped trie (32 children per
// level, about three levels at 20,000 pools). A block step changes the few
// pools it touched and shares every other part with the map of the block
// before, so its cost follows the pools changed, not the market's size, and a
// World a reader still holds never changes. It reads as a ReadonlyMap.
//
// Changes are made on a draft (`edit`): nodes the draft copied are its own and
// changed in place until `done`, so a step touching 200 pools copies each node
// on their paths once.

const LEAF = 0
const BRANCH = 1
const COLLISION = 2

interface Leaf<V> {
  readonly tag: typeof LEAF
  readonly hash: number
  readonly key: string
  readonly value: V
}

interface Branch<V> {
  readonly tag: typeof BRANCH
  /** one bit per child present, by the 5 bits of the hash at this level */
  bitmap: number
  children: Node<V>[]
  /** the draft that owns this node and may change it in place */
  owner: Owner | undefined
}

/** leaves whose keys hash alike */
interface Collision<V> {
  readonly tag: typeof COLLISION
  readonly hash: number
  readonly leaves: readonly Leaf<V>[]
}

type Node<V> = Leaf<V> | Branch<V> | Collision<V>
type Owner = { open: boolean }

// seeded per process: pool addresses are chosen by whoever creates a pool, the hash's collisions are not
const SEED = (Math.random() * 0x1_0000_0000) >>> 0

/** FNV-1a over the key's UTF-16 code units, from the process's seed */
const hashOf = (key: string): number => {
  let h = SEED ^ 0x811c9dc5
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  return h >>> 0
}

const popcount = (x: number): number => {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  x = (x + (x >>> 4)) & 0x0f0f0f0f
  return Math.imul(x, 0x01010101) >>> 24
}

const leaf = <V>(hash: number, key: string, value: V): Leaf<V> => ({ tag: LEAF, hash, key, value })
const branch = <V>(bitmap: number, children: Node<V>[], owner: Owner | undefined): Branch<V> => ({ tag: BRANCH, bitmap, children, owner })

const find = <V>(root: Branch<V>, key: string): Leaf<V> | undefined => {
  const hash = hashOf(key)
  let node: Node<V> = root
  for (let shift = 0; ; shift += 5) {
    if (node.tag === BRANCH) {
      const bit = 1 << ((hash >>> shift) & 31)
      if ((node.bitmap & bit) === 0) return undefined
      node = node.children[popcount(node.bitmap & (bit - 1))]!
      continue
    }
    if (node.tag === LEAF) return node.key === key ? node : undefined
    for (const l of node.leaves) if (l.key === key) return l
    return undefined
  }
}

/** `node` as the draft's own: itself when the draft made it, else a copy the draft owns */
const owned = <V>(node: Branch<V>, owner: Owner): Branch<V> => (node.owner === owner ? node : branch(node.bitmap, node.children.slice(), owner))

/** a node holding two entries (a leaf or collision, and a leaf) that share the hash bits above `shift` */
const pair = <V>(a: Leaf<V> | Collision<V>, b: Leaf<V>, shift: number, owner: Owner): Node<V> => {
  if (a.hash === b.hash) return { tag: COLLISION, hash: a.hash, leaves: a.tag === LEAF ? [a, b] : [...a.leaves, b] }
  const fa = (a.hash >>> shift) & 31
  const fb = (b.hash >>> shift) & 31
  if (fa === fb) return branch(1 << fa, [pair(a, b, shift + 5, owner)], owner)
  return branch((1 << fa) | (1 << fb), fa < fb ? [a, b] : [b, a], owner)
}

/** `node` with `key` set to `value`: the same node when nothing changed */
const assoc = <V>(node: Branch<V>, shift: number, entry: Leaf<V>, owner: Owner, size: { n: number }): Branch<V> => {
  const bit = 1 << ((entry.hash >>> shift) & 31)
  const at = popcount(node.bitmap & (bit - 1))
  if ((node.bitmap & bit) === 0) {
    const own = owned(node, owner)
    own.children.splice(at, 0, entry)
    own.bitmap |= bit
    size.n++
    return own
  }
  const child = node.children[at]!
  let next: Node<V>
  if (child.tag === BRANCH) {
    next = assoc(child, shift + 5, entry, owner, size)
  } else if (child.tag === LEAF) {
    if (child.key === entry.key) {
      if (child.value === entry.value) return node
      next = entry
    } else {
      next = pair(child, entry, shift + 5, owner)
      size.n++
    }
  } else if (child.hash === entry.hash) {
    const i = child.leaves.findIndex((l) => l.key === entry.key)
    if (i >= 0 && child.leaves[i]!.value === entry.value) return node
    const leaves = child.leaves.slice()
    if (i >= 0) leaves[i] = entry
    else {
      leaves.push(entry)
      size.n++
    }
    next = { tag: COLLISION, hash: child.hash, leaves }
  } else {
    next = pair(child, entry, shift + 5, owner)
    size.n++
  }
  if (next === child) return node
  const own = owned(node, owner)
  own.children[at] = next
  return own
}

/** `node` without `key`: the same node when it was not there, undefined when nothing is left */
const dissoc = <V>(node: Branch<V>, shift: number, hash: number, key: string, owner: Owner, size: { n: number }): Branch<V> | undefined => {
  const bit = 1 << ((hash >>> shift) & 31)
  if ((node.bitmap & bit) === 0) return node
  const at = popcount(node.bitmap & (bit - 1))
  const child = node.children[at]!
  let next: Node<V> | undefined
  if (child.tag === BRANCH) {
    next = dissoc(child, shift + 5, hash, key, owner, size)
    if (next === child) return node
  } else if (child.tag === LEAF) {
    if (child.key !== key) return node
    next = undefined
    size.n--
  } else {
    const leaves = child.leaves.filter((l) => l.key !== key)
    if (leaves.length === child.leaves.length) return node
    size.n--
    next = leaves.length === 1 ? leaves[0]! : { tag: COLLISION, hash: child.hash, leaves }
  }
  const own = owned(node, owner)
  if (next !== undefined) {
    own.children[at] = next
    return own
  }
  own.children.splice(at, 1)
  own.bitmap &= ~bit
  return own.bitmap === 0 && shift > 0 ? undefined : own
}

function forEachLeaf<V>(node: Node<V>, f: (l: Leaf<V>) => void): void {
  if (node.tag === LEAF) f(node)
  else if (node.tag === BRANCH) for (const c of node.children) forEachLeaf(c, f)
  else for (const l of node.leaves) f(l)
}

/** the entries, keys or values in one array: walking the trie once is faster than stepping a generator through it */
const collect = <V, A>(root: Branch<V>, f: (l: Leaf<V>) => A): A[] => {
  const out: A[] = []
  forEachLeaf(root, (l) => void out.push(f(l)))
  return out
}

const EMPTY_ROOT: Branch<never> = branch(0, [], undefined)

/** A map of string keys that never changes: `edit` gives a draft of the next one. */
export class PersistentMap<V> implements ReadonlyMap<string, V> {
  /** the map of a trie's root (`empty`, `from` and a draft's `done` make them) */
  constructor(
    private readonly root: Branch<V>,
    readonly size: number,
  ) {}

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

  get(key: string): V | undefined {
    return find(this.root, key)?.value
  }

  has(key: string): boolean {
    return find(this.root, key) !== undefined
  }

  /** a draft of the next map: changed in place, sharing what it leaves alone, until `done` */
  edit(): MapDraft<V> {
    return new MapDraft(this.root, this.size)
  }

  forEach(f: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    forEachLeaf(this.root, (l) => f.call(thisArg, l.value, l.key, this))
  }

  entries(): MapIterator<[string, V]> {
    return collect(this.root, (l): [string, V] => [l.key, l.value]).values()
  }

  keys(): MapIterator<string> {
    return collect(this.root, (l) => l.key).values()
  }

  values(): MapIterator<V> {
    return collect(this.root, (l) => l.value).values()
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries()
  }

  get [Symbol.toStringTag](): string {
    return "PersistentMap"
  }
}

/** The next PersistentMap being made: read and changed like a Map, then `done`. */
export class MapDraft<V> implements ReadonlyMap<string, V> {
  private readonly owner: Owner = { open: true }
  private readonly count: { n: number }

  constructor(
    private root: Branch<V>,
    size: number,
  ) {
    this.count = { n: size }
  }

  get size(): number {
    return this.count.n
  }

  get(key: string): V | undefined {
    return find(this.root, key)?.value
  }

  has(key: string): boolean {
    return find(this.root, key) !== undefined
  }

  set(key: string, value: V): this {
    this.open()
    this.root = assoc(this.root, 0, leaf(hashOf(key), key, value), this.owner, this.count)
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

  forEach(f: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    forEachLeaf(this.root, (l) => f.call(thisArg, l.value, l.key, this))
  }

  entries(): MapIterator<[string, V]> {
    return collect(this.root, (l): [string, V] => [l.key, l.value]).values()
  }

  keys(): MapIterator<string> {
    return collect(this.root, (l) => l.key).values()
  }

  values(): MapIterator<V> {
    return collect(this.root, (l) => l.value).values()
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries()
  }

  get [Symbol.toStringTag](): string {
    return "MapDraft"
  }

  private open(): void {
    if (!this.owner.open) throw new Error("MapDraft: changed after done()")
  }
}
