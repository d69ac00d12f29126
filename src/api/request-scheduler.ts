// How a request's fiber is resumed. Effect's default scheduler resumes a fiber
// whose asynchronous step has completed (its body read, a node's answer) in a
// later microtask, through a task runner made for that fiber: under load that
// hop is about a fifth of the edge's CPU per /quote (bench api-edge). A request
// fiber resumed from outside any fiber (a promise's or a timer's callback, with
// nothing else running) runs there at once instead. Everything else goes to the
// default scheduler: a fiber resumed by another fiber, a fiber giving up its
// turn, a resume while a task of this scheduler runs. So no run nests in
// another, and a long program still yields to the event loop as any other
// fiber does.
import { Fiber, Option, Scheduler } from "effect"

/** a task of this scheduler is running (on this thread: there is one) */
let running = false

const run = (task: Scheduler.Task): void => {
  running = true
  try {
    task()
  } finally {
    running = false
  }
}

export const requestScheduler: Scheduler.Scheduler = {
  scheduleTask: (task, priority, fiber) => {
    if (running || Option.isSome(Fiber.getCurrentFiber())) Scheduler.defaultScheduler.scheduleTask(() => run(task), priority, fiber)
    else run(task)
  },
  shouldYield: (fiber) => Scheduler.defaultScheduler.shouldYield(fiber),
}
