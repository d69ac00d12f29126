// The house read with TypeScript's own parser: every file under src/ is parsed
// and each import form (static, type, dynamic, re-export, `import x =
// require()`, `require()`, `import("x").T` in a type) becomes one Import; the
// rules of the house are then checked over them. A pure function from a map of
// file path (relative to src/) -> source text to the violations, so a test can
// plant a fault in memory without touching src/.
import ts from "typescript"
import { Glob } from "bun"
import { readFileSync } from "node:fs"
import { dirname, join, normalize, resolve } from "node:path"

export const SRC = resolve(import.meta.dir, "../../src")

export type Rule = "door" | "cycle" | "order" | "devnet" | "pure-imports" | "pure-globals"
export const RULES: readonly Rule[] = ["door", "cycle", "order", "devnet", "pure-imports", "pure-globals"]

export interface Import {
  /** the importing file, relative to src/ */
  readonly file: string
  readonly room: string
  readonly specifier: string
  readonly form: "import" | "export" | "dynamic" | "import-equals" | "require" | "import-type"
  /** the file imported, relative to src/ (relative specifiers only) */
  readonly target: string | undefined
  readonly targetRoom: string | undefined
  /** the package name of a bare specifier ("viem", "@effect/sql", "node:fs") */
  readonly pkg: string | undefined
  /** names brought in; "*" for a namespace, default, side-effect, dynamic or computed import */
  readonly names: readonly { readonly name: string; readonly typeOnly: boolean }[]
  /** the whole import is erased at runtime */
  readonly typeOnly: boolean
}

export interface Violation {
  readonly rule: Rule
  readonly file: string
  readonly detail: string
}

/** A package a pure room may use: only these names, each for a reason. */
export interface PackageAllowance {
  readonly rooms: readonly string[]
  readonly pkg: string
  readonly names: readonly string[]
  /** the names are allowed only as types */
  readonly typesOnly: boolean
  readonly reason: string
}

/** An arrow against the rules that the house carries for now, type-only, with the reason. */
export interface Exception {
  readonly from: string
  readonly to: string
  readonly reason: string
}

export interface HousePlan {
  /** Every room, lowest first: a room imports only rooms strictly below it. */
  readonly order: readonly string[]
  /** Rooms of math and data: no Effect, no I/O, no clock. */
  readonly pure: readonly string[]
  /** The only rooms that may import the devnet. */
  readonly devnetImporters: readonly string[]
  readonly pureImports: readonly PackageAllowance[]
  readonly exceptions: readonly Exception[]
}

const PURE_ROOMS = ["amm", "domain", "routing", "pricer"]

export const HOUSE: HousePlan = {
  order: [
    // pure math and data
    ...PURE_ROOMS,
    // services: the ones that know nothing of the chain first, then the chain's stack
    "config", "database", "access", "contracts", "chain", "tokens", "market", "sources", "ops", "relayer",
    // the devnet: a tool over the services, known only to the entry points
    "devnet",
    // the request programs, the HTTP edge, the entry points
    "swap", "api", "cli", "main",
  ],
  pure: PURE_ROOMS,
  devnetImporters: ["cli", "main"],
  pureImports: [
    { rooms: PURE_ROOMS, pkg: "viem", names: ["Address", "Hex"], typesOnly: true, reason: "the hex string types every room speaks; erased at runtime" },
    { rooms: ["domain"], pkg: "viem", names: ["getAddress"], typesOnly: false, reason: "EIP-55 checksum: keccak over the address text, no I/O" },
  ],
  exceptions: [],
}

/** What a pure room may not touch, each for a reason. */
const IMPURE_GLOBALS: Record<string, string> = {
  fetch: "network I/O",
  Bun: "the runtime's I/O and processes",
  process: "environment, exit and I/O",
  console: "output",
  require: "loads modules at runtime, past the import rules",
  setTimeout: "a timer",
  setInterval: "a timer",
  setImmediate: "a timer",
  clearTimeout: "a timer",
  clearInterval: "a timer",
  queueMicrotask: "scheduling",
  globalThis: "a way around every other name here",
  performance: "the clock",
  crypto: "randomness",
}

/** The room of a path relative to src/: its top-level folder, or the file's name. */
export const roomOf = (path: string): string => (path.includes("/") ? path.split("/")[0]! : path.replace(/\.tsx?$/, ""))

const doorOf = (room: string, files: ReadonlyMap<string, string>): string =>
  files.has(`${room}.ts`) && ![...files.keys()].some((f) => f.startsWith(`${room}/`)) ? `${room}.ts` : `${room}/index.ts`

const packageOf = (specifier: string): string => {
  const parts = specifier.split("/")
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!
}

const resolveTarget = (file: string, specifier: string, files: ReadonlyMap<string, string>): string => {
  const path = normalize(join(dirname(file), specifier))
  const candidates = [path, `${path}.ts`, `${path}/index.ts`, path.replace(/\.js$/, ".ts")]
  return candidates.find((c) => files.has(c)) ?? path
}

// parsed once per file text: the fault tests re-read the whole house many times
const parsed = new Map<string, ts.SourceFile>()
const parse = (file: string, text: string): ts.SourceFile => {
  const key = `${file}\0${text}`
  let source = parsed.get(key)
  if (source === undefined) {
    source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
    parsed.set(key, source)
  }
  return source
}

const literal = (node: ts.Node | undefined): string | undefined =>
  node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined

/** Every import of one file, in every form the language has. */
export const parseImports = (file: string, text: string, files: ReadonlyMap<string, string>): Import[] => {
  const source = parse(file, text)
  const found: Import[] = []
  const add = (specifier: string | undefined, form: Import["form"], names: Import["names"], typeOnly: boolean, node: ts.Node) => {
    const relativeTarget = specifier !== undefined && specifier.startsWith(".")
    const target = relativeTarget ? resolveTarget(file, specifier, files) : undefined
    found.push({
      file,
      room: roomOf(file),
      specifier: specifier ?? `<computed: ${node.getText(source)}>`,
      form,
      target,
      targetRoom: target === undefined ? undefined : target.startsWith("..") ? "(outside src)" : roomOf(target),
      pkg: specifier === undefined || relativeTarget ? undefined : packageOf(specifier),
      names,
      typeOnly,
    })
  }
  const all = [{ name: "*", typeOnly: false }]
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause
      const clauseType = clause?.isTypeOnly ?? false
      const names: { name: string; typeOnly: boolean }[] = []
      if (clause === undefined || clause.name !== undefined) names.push({ name: "*", typeOnly: clauseType })
      const bindings = clause?.namedBindings
      if (bindings !== undefined && ts.isNamespaceImport(bindings)) names.push({ name: "*", typeOnly: clauseType })
      if (bindings !== undefined && ts.isNamedImports(bindings))
        for (const s of bindings.elements) names.push({ name: (s.propertyName ?? s.name).text, typeOnly: clauseType || s.isTypeOnly })
      add(literal(node.moduleSpecifier), "import", names, names.length > 0 && names.every((n) => n.typeOnly), node)
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) {
      const clause = node.exportClause
      const names =
        clause !== undefined && ts.isNamedExports(clause)
          ? clause.elements.map((s) => ({ name: (s.propertyName ?? s.name).text, typeOnly: node.isTypeOnly || s.isTypeOnly }))
          : [{ name: "*", typeOnly: node.isTypeOnly }]
      add(literal(node.moduleSpecifier), "export", names, names.every((n) => n.typeOnly), node)
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(literal(node.moduleReference.expression), "import-equals", [{ name: "*", typeOnly: node.isTypeOnly }], node.isTypeOnly, node)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(literal(node.arguments[0]), "dynamic", all, false, node)
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "require") {
      add(literal(node.arguments[0]), "require", all, false, node)
    } else if (ts.isImportTypeNode(node)) {
      const argument = ts.isLiteralTypeNode(node.argument) ? literal(node.argument.literal) : undefined
      const qualifier = node.qualifier === undefined ? "*" : ts.isIdentifier(node.qualifier) ? node.qualifier.text : leftmost(node.qualifier)
      add(argument, "import-type", [{ name: qualifier, typeOnly: true }], true, node)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

const leftmost = (name: ts.EntityName): string => (ts.isIdentifier(name) ? name.text : leftmost(name.left))

/** A use of something a pure room may not touch: the name and where. */
interface GlobalUse {
  readonly file: string
  readonly name: string
  readonly line: number
}

/** An identifier that names a member, a property or an import, not a variable in scope. */
const isNotAReference = (node: ts.Identifier): boolean => {
  const parent = node.parent
  if (ts.isPropertyAccessExpression(parent)) return parent.name === node
  if (ts.isQualifiedName(parent)) return parent.right === node
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent)) return true
  if (ts.isBindingElement(parent)) return parent.propertyName === node
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) return parent.label === node
  if (
    ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent) ||
    ts.isMethodDeclaration(parent) || ts.isMethodSignature(parent) || ts.isGetAccessorDeclaration(parent) ||
    ts.isSetAccessorDeclaration(parent) || ts.isEnumMember(parent)
  )
    return parent.name === node
  return false
}

/**
 * The forbidden globals, `Date.now`, `new Date()`, `Math.random` and `import.meta` one file uses.
 * A local variable named like one of these globals counts too: pure code has no reason to hide one.
 */
export const globalUses = (file: string, text: string): GlobalUse[] => {
  const source = parse(file, text)
  const uses: GlobalUse[] = []
  const at = (node: ts.Node, name: string) =>
    uses.push({ file, name, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 })
  const member = (node: ts.Node, object: string, name: string): boolean =>
    (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === object && node.name.text === name) ||
    (ts.isElementAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === object && literal(node.argumentExpression) === name)
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && Object.hasOwn(IMPURE_GLOBALS, node.text) && !isNotAReference(node)) at(node, node.text)
    else if (member(node, "Date", "now")) at(node, "Date.now")
    else if (member(node, "Math", "random")) at(node, "Math.random")
    else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === "Date" && (node.arguments ?? []).length === 0)
      at(node, "Date() (the clock)")
    else if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) at(node, "import.meta")
    ts.forEachChild(node, visit)
  }
  visit(source)
  return uses
}

export interface HouseReport {
  readonly imports: readonly Import[]
  /** how many things each rule looked at: a rule that looked at nothing proves nothing */
  readonly checked: Readonly<Record<Rule, number>>
  readonly violations: readonly Violation[]
}

const excused = (plan: HousePlan, i: Import): boolean =>
  i.typeOnly && plan.exceptions.some((e) => e.from === i.room && e.to === i.targetRoom)

const describeImport = (i: Import): string =>
  `${i.file} -> ${i.target ?? i.specifier} (${i.form}${i.typeOnly ? ", type only" : ""})`

/** The rooms' cycles: each strongly connected set of more than one room, as a path back to its start. */
const cyclesOf = (arrows: ReadonlyMap<string, ReadonlySet<string>>): string[][] => {
  const cycles: string[][] = []
  const done = new Set<string>()
  const path: string[] = []
  const visit = (room: string) => {
    const seen = path.indexOf(room)
    if (seen >= 0) {
      cycles.push([...path.slice(seen), room])
      return
    }
    if (done.has(room)) return
    path.push(room)
    for (const next of [...(arrows.get(room) ?? [])].sort()) visit(next)
    path.pop()
    done.add(room)
  }
  for (const room of [...arrows.keys()].sort()) visit(room)
  return cycles
}

/** Check the house drawn by `files` (path relative to src/ -> source text) against `plan`. */
export const inspectHouse = (files: ReadonlyMap<string, string>, plan: HousePlan = HOUSE): HouseReport => {
  const imports = [...files].flatMap(([file, text]) => parseImports(file, text, files))
  const crossing = imports.filter((i) => i.targetRoom !== undefined && i.targetRoom !== i.room)
  const rooms = new Set([...files.keys()].map(roomOf))
  const pure = new Set(plan.pure)
  const rank = new Map(plan.order.map((room, index) => [room, index]))
  const violations: Violation[] = []
  const checked: Record<Rule, number> = { door: 0, cycle: 0, order: 0, devnet: 0, "pure-imports": 0, "pure-globals": 0 }

  // door: a room is entered only through its index.ts (and every room has one)
  for (const room of rooms) {
    checked.door++
    if (!files.has(doorOf(room, files))) violations.push({ rule: "door", file: room, detail: `${room} has no door (${room}/index.ts)` })
  }
  for (const i of crossing) {
    checked.door++
    if (i.target !== doorOf(i.targetRoom!, files)) violations.push({ rule: "door", file: i.file, detail: `past the door of ${i.targetRoom}: ${describeImport(i)}` })
  }

  // cycle: no loop between rooms, type imports included
  const arrows = new Map<string, Set<string>>()
  for (const i of crossing) arrows.set(i.room, (arrows.get(i.room) ?? new Set()).add(i.targetRoom!))
  checked.cycle = [...arrows.values()].reduce((n, to) => n + to.size, 0)
  for (const cycle of cyclesOf(arrows)) violations.push({ rule: "cycle", file: cycle[0]!, detail: cycle.join(" -> ") })

  // order: every room has a place, and imports only rooms strictly below it
  for (const room of rooms) {
    checked.order++
    if (!rank.has(room)) violations.push({ rule: "order", file: room, detail: `${room} has no place in the order of the house` })
  }
  for (const i of imports.filter((i) => i.specifier.startsWith("<computed"))) {
    violations.push({ rule: "order", file: i.file, detail: `an import the house cannot read: ${describeImport(i)}` })
  }
  for (const i of crossing) {
    checked.order++
    const from = rank.get(i.room)
    const to = rank.get(i.targetRoom!)
    if (from === undefined) continue
    if (to === undefined) violations.push({ rule: "order", file: i.file, detail: `into a room with no place in the order: ${describeImport(i)}` })
    else if (to > from && !excused(plan, i)) violations.push({ rule: "order", file: i.file, detail: `${i.room} imports ${i.targetRoom}, which stands above it: ${describeImport(i)}` })
  }

  // devnet: nothing at runtime knows the devnet
  for (const i of crossing.filter((i) => i.targetRoom === "devnet")) {
    checked.devnet++
    if (!plan.devnetImporters.includes(i.room)) violations.push({ rule: "devnet", file: i.file, detail: `only ${plan.devnetImporters.join(" and ")} may import the devnet: ${describeImport(i)}` })
  }

  // pure imports: pure rooms import pure rooms, and of packages only the names allowed
  for (const i of imports.filter((i) => pure.has(i.room))) {
    checked["pure-imports"]++
    if (i.targetRoom !== undefined) {
      if (i.targetRoom !== i.room && !pure.has(i.targetRoom) && !excused(plan, i))
        violations.push({ rule: "pure-imports", file: i.file, detail: `pure ${i.room} imports the room ${i.targetRoom}: ${describeImport(i)}` })
      continue
    }
    const allowances = plan.pureImports.filter((a) => a.pkg === i.pkg && a.rooms.includes(i.room))
    const refused = i.names.filter((n) => !allowances.some((a) => a.names.includes(n.name) && (n.typeOnly || !a.typesOnly)))
    if (i.pkg === undefined || refused.length > 0 || (i.form !== "import" && i.form !== "import-type"))
      violations.push({
        rule: "pure-imports",
        file: i.file,
        detail: `pure ${i.room} may not use ${refused.map((n) => (n.typeOnly ? `type ${n.name}` : n.name)).join(", ") || "this import"} from ${i.specifier}: ${describeImport(i)}`,
      })
  }

  // pure globals: no I/O, no clock, no timers, no randomness
  for (const [file, text] of files) {
    if (!pure.has(roomOf(file))) continue
    checked["pure-globals"]++
    for (const use of globalUses(file, text))
      violations.push({ rule: "pure-globals", file, detail: `pure ${roomOf(file)} touches ${use.name} (line ${use.line}${IMPURE_GLOBALS[use.name] ? `: ${IMPURE_GLOBALS[use.name]}` : ""})` })
  }

  return { imports, checked, violations }
}

/** Every TypeScript file under src/, path relative to src/ -> text. */
export const readHouse = (): Map<string, string> =>
  new Map([...new Glob("**/*.{ts,tsx,mts,cts}").scanSync(SRC)].sort().map((path) => [path, readFileSync(join(SRC, path), "utf8")]))
