import "@unocss/reset/tailwind.css"
import "./styles.css"
import "virtual:uno.css"
import { Effect } from "effect"
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { showFlash } from "../services/notices.ts"
import { noticeStore, run } from "../services/runtime.ts"
import { Storage } from "../services/storage.ts"
import { App } from "./App.tsx"

const start = async () => {
  showFlash(noticeStore)
  const input = await run(Effect.all({ token: Storage.use((s) => s.token), theme: Storage.use((s) => s.theme) }))
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <App input={input} />
    </StrictMode>
  )
}

void start()
