import { Effect } from "effect"
import { CasinoAdminApi, type CasinoBet } from "../../schema/casino.ts"
import { DeskPlayersApi } from "../../schema/desk/players.ts"
import { casinoRecord, roundsList } from "../machines/flows.ts"
import type { Page, PageRequest } from "../machines/list.machine.ts"
import type { RecordCommand } from "../machines/record.machine.ts"
import { DeskApi } from "../services/api.ts"
import { data, task, written } from "./runtime.ts"
import type { Written } from "../../machines/writes.ts"

/** The Casino screen and a player's rounds with their world: src/schema/casino.ts's operator calls (composed in src/desk/root/flows.ts). */
const api = CasinoAdminApi.endpoints

/** Providers and games, read together. */
export const casino = casinoRecord.provide({
  actors: {
    load: task(() =>
      data(DeskApi.use((desk) =>
        Effect.map(Effect.all([desk.call(api.providers, {}), desk.call(api.games, {})]), ([providers, games]) => ({ data: { providers: providers.data, games: games.data } }))
      ))
    ),
    run: task<Written, RecordCommand>(({ command, fields }) =>
      command === "provider"
        ? written(DeskApi.use((desk) => desk.call(api.updateProvider, { params: { code: fields.code ?? "" }, payload: { active: fields.on === "true" } })))
        : written(DeskApi.use((desk) => desk.call(api.updateGame, { params: { id: fields.game ?? "" }, payload: { enabled: fields.on === "true" } })))
    )
  }
})

/** A player's rounds of a day: one page (the server answers a day's rounds at once). */
export const rounds = roundsList.provide({
  actors: {
    load: task<Page<CasinoBet>, PageRequest>(({ query }) =>
      data(DeskApi.use((desk) =>
        Effect.map(
          desk.call(DeskPlayersApi.endpoints.casinoRounds, { params: { id: query.player ?? "" }, query: query.date ? { date: query.date } : {} }),
          (envelope) => ({ data: { items: envelope.data, next: null, total: envelope.data.length } })
        )
      ))
    )
  }
})
