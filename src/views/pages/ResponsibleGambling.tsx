import { useSelector } from "@xstate/react"
import { useEffect } from "react"
import { useLocation } from "react-router"
import { Activity } from "../protection/Activity.tsx"
import { Breaks } from "../protection/Breaks.tsx"
import { Limits } from "../protection/Limits.tsx"
import { RealityChecks } from "../protection/RealityChecks.tsx"
import { type ProtectionRef, useProtection } from "../protection/useProtection.ts"
import { useOpenAuth, useRestoring, useSession } from "../session.ts"
import { PageLoading } from "../widgets/PageLoading.tsx"
import Content from "./Content.tsx"

const Tools = ({ protection }: { protection: ProtectionRef }) => {
  const ready = useSelector(protection, (s) => s.context.protection !== undefined)
  const failed = useSelector(protection, (s) => s.hasTag("failed"))
  const closed = useSelector(protection, (s) => s.context.protection?.closed)
  const { hash } = useLocation()
  // The footer's and the reality check's links land on their section once it is there.
  useEffect(() => {
    if (ready && hash) document.getElementById(hash.slice(1))?.scrollIntoView()
  }, [ready, hash])
  if (!ready) {
    return failed ? (
      <p className="card m-0 p-4">Your settings could not be loaded. <button type="button" className="text-brand underline" onClick={() => protection.send({ type: "protection.reload" })}>Try again</button></p>
    ) : <PageLoading />
  }
  return (
    <div className="flex flex-col gap-4">
      {closed ? <p role="status" className="card m-0 border-bad/40 p-4 font-600" data-testid="closure">{closed.message}</p> : null}
      <Limits protection={protection} />
      <RealityChecks protection={protection} />
      <Breaks protection={protection} />
      <Activity protection={protection} />
    </div>
  )
}

/** /responsible-gambling: a signed-in player's tools (limits, reality checks, breaks, statement), then the guidance every visitor reads. */
const ResponsibleGambling = () => {
  const protection = useProtection()
  const restoring = useRestoring()
  const signedIn = useSession((s) => s.hasTag("signedIn"))
  const openAuth = useOpenAuth()
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4">
      <h1 className="page-title m-0">Responsible Gambling</h1>
      {signedIn && protection ? <Tools protection={protection} /> : restoring ? <PageLoading /> : (
        <p className="card m-0 p-4">
          <button type="button" className="text-brand underline" onClick={() => openAuth("login")}>Sign in</button> to set deposit and loss limits, reality
          checks, a break or self-exclusion, and to see your activity statement.
        </p>
      )}
      <Content page="responsible" embedded />
    </div>
  )
}

export default ResponsibleGambling
