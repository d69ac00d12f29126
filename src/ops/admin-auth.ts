// The admin listener's bearer token: a request passes when its Authorization
// header is `Bearer <ADMIN_TOKEN>`. Both sides are hashed first so that the
// comparison takes the same time whatever the token's length or first wrong byte.
import { Redacted } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest()

/** Whether a request carries the token; built once per listener. */
export const bearerGate = (token: Redacted.Redacted<string>): ((request: Request) => boolean) => {
  const expected = digest(Redacted.value(token))
  return (request) => {
    const match = /^Bearer +(\S+) *$/i.exec(request.headers.get("authorization") ?? "")
    return timingSafeEqual(digest(match?.[1] ?? ""), expected) && match !== null
  }
}
