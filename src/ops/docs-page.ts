// The API's documentation page: one static HTML file that renders the OpenAPI
// document with Redoc's standalone bundle, both inlined, so it works from the
// admin listener, a file, or a static host, without loading scripts from
// elsewhere.
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"

let bundle: string | undefined
/** Redoc's browser bundle, read once. */
const redocBundle = (): string => (bundle ??= readFileSync(createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js"), "utf8"))

/** JSON safe inside a <script> element: no `<` can open `</script>` or a comment. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replaceAll("<", "\\u003c").replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029")

const escapeHtml = (text: string): string =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;")

/** The page of `document` (an OpenAPI document), titled by `title` or the document's own title. */
export const docsPage = (document: Record<string, unknown>, options: { readonly title?: string } = {}): string => {
  const info = document.info as { readonly title?: unknown } | undefined
  const title = options.title ?? (typeof info?.title === "string" ? info.title : "API")
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<div id="redoc"></div>
<script>${redocBundle()}</script>
<script>
Redoc.init(${scriptJson(document)}, { expandResponses: "200", jsonSampleExpandLevel: 3, hideDownloadButton: false }, document.getElementById("redoc"));
</script>
</body>
</html>
`
}
