import "@unocss/reset/tailwind.css"
import "./desk.css"
import { StrictMode, useEffect } from "react"
import { createRoot } from "react-dom/client"
import { BrowserRouter } from "react-router"
import { rootDesk } from "./root/desk.ts"
import { deskNotices } from "./root/runtime.ts"
import { onSessionEnded } from "./services/session.ts"
import { DeskActor } from "./views/desk-actor.ts"
import { DeskApp } from "./views/DeskApp.tsx"
import { Toasts } from "./views/widgets/Toasts.tsx"

/**
 * The desk's entry and composition root (admin.html): the root actor with
 * its world provided (src/desk/root/), the router under /admin, the toasts.
 * The player site never loads any of this (a test reads dist/).
 */

/** A 401 on any desk call ends the session in the root actor. */
const SessionEnd = () => {
  const desk = DeskActor.useActorRef()
  useEffect(() => onSessionEnded(() => desk.send({ type: "session.ended" })), [desk])
  return null
}

createRoot(document.getElementById("desk")!).render(
  <StrictMode>
    <DeskActor.Provider logic={rootDesk}>
      <BrowserRouter basename="/admin">
        <SessionEnd />
        <DeskApp />
      </BrowserRouter>
      <Toasts store={deskNotices} />
    </DeskActor.Provider>
  </StrictMode>
)
