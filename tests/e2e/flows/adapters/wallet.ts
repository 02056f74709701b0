import { expect } from "@playwright/test"
import type { walletMachine } from "../../../../src/machines/wallet.machine.ts"
import { answerOf, type FlowAdapter, type FlowWorld, networkDown } from "../adapter.ts"
import { createPlayer, openSignedIn } from "../../support.ts"

const done = answerOf<typeof walletMachine>()

const wallets = ({ page }: FlowWorld) => page.getByRole("radiogroup", { name: "Play from wallet" })
const option = (world: FlowWorld, wallet: unknown) => wallets(world).getByRole("radio", { name: wallet === 2 ? "Bonus" : "Main" })

/** The wallet switch on the Bonus page (the header's shows only on wide screens), for a fresh player on the main wallet. */
export const wallet: FlowAdapter = {
  machine: "wallet",
  input: { wallet: 1 },
  start: async (world) => {
    const player = await createPlayer(world.request, "Wallet Player")
    await openSignedIn(world.page, player.token, "/bonus")
    await expect(option(world, 1)).toHaveAttribute("aria-checked", "true")
  },
  events: {
    "wallet.switch": {
      samples: [{ type: "wallet.switch", wallet: 2 }, { type: "wallet.switch", wallet: 1 }],
      step: async (world, event) => option(world, event.wallet).click()
    },
    // The real server's answer to PUT /wallet.
    "xstate.done.actor.switchWallet": {
      samples: [done("switchWallet", {
        id: "player", name: "Wallet Player", username: "wallet", mobileNo: "+919800000000", role: 4, wallet: 2,
        balance: 0, exposure: 0, bonus: 0, refBonus: 0, creditReference: 0, referralCode: "CODE", bets: []
      })],
      step: async (world) => expect(world.page.getByText("Wallet Changed")).toBeVisible()
    },
    // The call fails: the network dropped (the browser aborts the request). The server's refusals end the session
    // (401) or cannot come from this screen (the switch offers only wallets 1 and 2, and credit players have none).
    "xstate.error.actor.switchWallet": {
      samples: [{ type: "xstate.error.actor.switchWallet", actorId: "switchWallet", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: networkDown("**/api/v1/wallet"),
      step: async (world) => expect(option(world, 1)).toHaveAttribute("aria-checked", "true")
    }
  },
  states: {
    "wallet.Idle": async (world) => expect(wallets(world)).toHaveAttribute("aria-busy", "false")
  }
}
