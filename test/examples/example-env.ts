// The environment the example tests run `bun start` and an example in: this
// process's, without the key store's and the relayer's settings a developer's
// shell may hold (bun start keeps its own beside the manifest).
export const exampleEnv = (vars: Record<string, string>) => {
  const out: Record<string, string | undefined> = { ...process.env, HOST: "127.0.0.1", LOG_LEVEL: "error", ...vars }
  delete out.DATABASE_URL
  delete out.KEY_HASH_SECRET
  delete out.RELAYER_PRIVATE_KEY
  return out
}
