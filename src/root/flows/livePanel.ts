import { livePanelMachine } from "../../machines/livePanel.machine.ts"
import { watchScore } from "../odds.ts"

/** The right sidebar's live panel with the event's score from the odds channel. */
export default livePanelMachine.provide({ actors: { watchScore } })
