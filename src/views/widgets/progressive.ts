import { startTransition, useEffect, useState } from "react"

/**
 * Rows or cards rendered in one step: a phone's first screenful of a list, and
 * each later step well under a long task (50 ms) even with the CPU slowed 4x.
 */
export const SCREENFUL = 12

/**
 * How many of a long list's `total` items to render now: the first `step` at
 * once, then `step` more in each later task until all are. Rendering a list of
 * hundreds of rows in one go (react-dom creating and committing them all) is a
 * long task that holds up the first seconds and every click; in steps, the
 * first screenful paints at once and the browser handles input between steps.
 * Each step is a transition, so a click or a key press goes first.
 *
 * The later items come below the first screenful, out of view, so nothing on
 * screen moves. A list whose items change identity (a new category) is
 * remounted by its `key` to start again from the first step.
 */
export const useProgressive = (total: number, step = SCREENFUL) => {
  const [rendered, setRendered] = useState(step)
  useEffect(() => {
    if (rendered >= total) return
    // Past this commit (a task of its own), React's scheduler runs the next step.
    startTransition(() => setRendered((count) => count + step))
  }, [rendered, total, step])
  return Math.min(rendered, total)
}
