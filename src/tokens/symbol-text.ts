// A token's symbol as the chain returns it is anyone's text: it is shown to
// clients (in /tokens and in error messages) only after this cleaning.

/** The most characters (code points) of a symbol that are kept. */
export const SYMBOL_MAX_CHARACTERS = 32

// controls (C0, DEL, C1), format characters (the bidi embeddings, overrides,
// isolates and marks, zero-width characters, BOM, tags), line and paragraph
// separators, and surrogate halves without their pair
const UNSHOWABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu

/** The symbol without the characters that can hide or reorder text, trimmed, at most 32 characters. */
export const cleanSymbol = (raw: string): string =>
  Array.from(raw.replace(UNSHOWABLE, "").trim()).slice(0, SYMBOL_MAX_CHARACTERS).join("").trimEnd()
