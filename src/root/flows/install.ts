import { fromCallback, fromPromise } from "xstate"
import { type InstallEvent, installMachine, type InstallReport } from "../../machines/install.machine.ts"
import { local, read, write } from "../../services/browserStorage.ts"
import { showInstallPrompt, whenInstallable } from "../../services/installPrompt.ts"

/** Where this browser remembers it was offered the install. */
const OFFERED = "installOffered"
const offered = () => read(local, OFFERED) !== null

/** iPhone and iPad (iPadOS says it is a Mac, with touch): no install prompt, Share → Add to Home Screen. */
const isIos = () => /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.userAgent.includes("Macintosh") && navigator.maxTouchPoints > 1)

/** Already the installed app: opened from the home screen. */
const standalone = () => matchMedia("(display-mode: standalone)").matches || (navigator as { standalone?: boolean }).standalone === true

const browser = fromCallback<InstallEvent, void, InstallReport>(({ sendBack }) => {
  if (standalone()) return sendBack({ type: "install.installed" })
  if (isIos()) return sendBack({ type: "install.ios", offered: offered() })
  const installed = () => sendBack({ type: "install.installed" })
  addEventListener("appinstalled", installed)
  const stop = whenInstallable(() => sendBack({ type: "install.available", offered: offered() }))
  return () => {
    stop()
    removeEventListener("appinstalled", installed)
  }
})

export default installMachine.provide({
  actors: {
    browser,
    prompt: fromPromise(() => showInstallPrompt())
  },
  actions: {
    rememberOffered: () => write(local, OFFERED, "1")
  }
})
