import { Schema } from "effect"

export const CasinoGame = Schema.Struct({
  table_id: Schema.String,
  game_id: Schema.String,
  provider_name: Schema.String,
  provider: Schema.String,
  game_category: Schema.String,
  game_images: Schema.String,
  title: Schema.String
})
export type CasinoGame = typeof CasinoGame.Type
