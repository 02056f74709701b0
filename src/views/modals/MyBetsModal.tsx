import { useSelector } from "@xstate/react"
import { useBetChanges } from "../bets.ts"
import { useFlow } from "../flows.ts"
import { BetGroups } from "../widgets/BetsTable.tsx"
import { Dialog } from "../widgets/Dialog.tsx"

/**
 * My Bets (SPEC section 2): the player's open bets grouped by event,
 * collapsible, the first group open, 'No Data Available' when there are
 * none; each group links to its event; matched and unmatched bets apart,
 * Cancel on each unmatched one. The `myBets` flow, open while the modal is:
 * it reloads when the account or the player's bets change.
 */
const MyBetsModal = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const list = useFlow("myBets", { input: {} })
  const bets = useSelector(list, (s) => s?.context.bets ?? [])
  const loading = useSelector(list, (s) => s === undefined || (s.hasTag("loading") && s.context.bets.length === 0))
  const failed = useSelector(list, (s) => s?.hasTag("failed") ?? false)
  const changes = useBetChanges(list)
  return (
    <Dialog open={open} title="My Bets" onClose={onClose} wide testId="my-bets">
      {loading ? <p className="m-0 p-4 text-center text-sm text-muted">Loading…</p>
        : failed ? <p role="alert" className="m-0 p-4 text-center text-sm text-warn">Your bets could not be loaded. Please try again.</p>
        : <BetGroups bets={bets} onNavigate={onClose} changes={changes} />}
    </Dialog>
  )
}

export default MyBetsModal
