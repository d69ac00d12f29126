// Spans made only where something records them. With Effect's own tracer, the one
// a runtime has unless a layer sets another (this service sets none; bench/market.ts
// and an application embedding the services may), a span is recorded nowhere, yet
// Effect.withSpan costs ~35 Effect steps a call: it makes the span and provides it
// through the fiber's context, copying the fiber's references twice. That was a
// third of a /swap's steps (its node reads and its simulation each in a span). So
// the tracer is looked at first (one step), and the span made only under another.
import { Effect, type Tracer } from "effect"

/** Effect's own tracer: what every runtime has until a layer sets another */
const effectTracer: Tracer.Tracer = Effect.runSync(Effect.tracerWith(Effect.succeed))

/** `self` in a span named `name` when the runtime's tracer records spans; `self` as it is otherwise. */
export const traced =
  (name: string, options?: Tracer.SpanOptions) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.tracerWith((tracer) => (tracer === effectTracer ? self : Effect.withSpan(self, name, { captureStackTrace: false, ...options })))
