// Settings that hold JSON (PRICE_FEEDS, AGGREGATORS, DEXES), decoded by a
// Schema, with one line per problem naming the variable and the entry:
//   AGGREGATORS must be a JSON array of { … } (not an array)
//   AGGREGATORS: aggregator a: timeoutMs must be a number
import { Config, ConfigError, Either, Option, ParseResult, Schema } from "effect"

export interface JsonVariable<A, I = unknown> {
  readonly name: string
  /** decodes the parsed JSON */
  readonly schema: Schema.Schema<A, I>
  /** what the whole value must be, for messages: "a JSON array of { name, kind, url }" */
  readonly shape: string
  /** how messages name one entry, from its key in the value (an index, or a property's position) and the value as given */
  readonly entry: (key: PropertyKey, value: unknown) => string
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const fieldPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join("")

/** One line per problem in a value that did not decode. */
export const describeIssues = <A, I>(variable: JsonVariable<A, I>, text: string, error: ParseResult.ParseError): string[] => {
  const value = parsed(text)
  return ParseResult.ArrayFormatter.formatErrorSync(error).map(({ path, message }) => {
    if (path.length === 0) return `${variable.name} must be ${variable.shape} (${message})`
    const [key, ...field] = path
    const named = `${variable.name}: ${variable.entry(key!, value)}: `
    return field.length === 0 ? `${named}${message}` : `${named}${fieldPath(field)} ${message}`
  })
}

/** Decodes a JSON setting's text; the lines name every problem. */
export const decodeJson = <A, I>(variable: JsonVariable<A, I>, text: string): Either.Either<A, string[]> =>
  Either.mapLeft(Schema.decodeUnknownEither(Schema.parseJson(variable.schema), { errors: "all" })(text), (error) => describeIssues(variable, text, error))

/** Lines as one ConfigError: each line is a whole message (it names its variable). */
export const configProblems = (lines: readonly [string, ...string[]]): ConfigError.ConfigError =>
  lines.map((line) => ConfigError.InvalidData([], line)).reduce((all, one) => ConfigError.And(all, one))

/** The variable decoded; unset or blank: none. */
export const jsonVariable = <A, I>(variable: JsonVariable<A, I>): Config.Config<Option.Option<A>> =>
  Config.option(Config.string(variable.name)).pipe(
    Config.mapOrFail((text) => {
      if (Option.isNone(text) || text.value.trim() === "") return Either.right(Option.none<A>())
      return Either.match(decodeJson(variable, text.value), {
        onLeft: (lines) => Either.left(configProblems(lines.length > 0 ? (lines as [string, ...string[]]) : [`${variable.name} must be ${variable.shape}`])),
        onRight: (value) => Either.right(Option.some(value)),
      })
    }),
  )
