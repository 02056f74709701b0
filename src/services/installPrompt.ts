/**
 * The browser's install prompt (Chromium's `beforeinstallprompt`), held from
 * the start of the page: unless the page takes it, Chrome on Android shows its
 * own install bar at a moment of its choosing. The install flow shows the
 * prompt when the player chooses (src/machines/install.machine.ts). Plain and
 * tiny, so the entry can listen before anything else loads.
 */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>
  readonly userChoice: Promise<{ readonly outcome: "accepted" | "dismissed" }>
}

let held: InstallPromptEvent | undefined
const listeners = new Set<() => void>()

/** Starts holding the prompt; the entry calls it once. */
export const holdInstallPrompt = () => {
  addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault()
    held = event as InstallPromptEvent
    for (const listener of listeners) listener()
  })
}

/** Calls `listener` now if a prompt is held, and whenever the browser offers one; the returned function stops. */
export const whenInstallable = (listener: () => void): (() => void) => {
  listeners.add(listener)
  if (held) listener()
  return () => void listeners.delete(listener)
}

/** Shows the held prompt (once: the browser offers another later); whether the player installed. */
export const showInstallPrompt = async (): Promise<"accepted" | "dismissed"> => {
  const event = held
  held = undefined
  if (!event) throw new Error("install: the browser offers no prompt now")
  await event.prompt()
  return (await event.userChoice).outcome
}
