// Types of fair.js (plain JavaScript so the game page can load it as is).

export type GameCode = "dragon-tiger" | "andar-bahar" | "lucky-lotus"
export type SlotSymbol = "lotus" | "seven" | "bar" | "bell" | "mango" | "cherry"

export interface DragonTigerOutcome {
  readonly game: "dragon-tiger"
  readonly dragon: number
  readonly tiger: number
  readonly winner: "dragon" | "tiger" | "tie"
}

export interface AndarBaharOutcome {
  readonly game: "andar-bahar"
  readonly joker: number
  readonly andar: ReadonlyArray<number>
  readonly bahar: ReadonlyArray<number>
  readonly winner: "andar" | "bahar"
}

export interface SlotOutcome {
  readonly game: "lucky-lotus"
  readonly stops: ReadonlyArray<number>
  readonly reels: ReadonlyArray<ReadonlyArray<SlotSymbol>>
  readonly line: ReadonlyArray<SlotSymbol>
  readonly multiplier: number
}

export type Outcome = DragonTigerOutcome | AndarBaharOutcome | SlotOutcome

export interface Spot {
  readonly id: string
  readonly label: string
  readonly pays: string
}

export interface GameRules {
  readonly title: string
  readonly action: string
  readonly spots: ReadonlyArray<Spot>
  readonly rules: string
}

export interface RandomStream {
  int(n: number): Promise<number>
}

export declare function sha256Hex(text: string): Promise<string>
export declare function commitOf(serverSeed: string): Promise<string>
export declare function randomStream(serverSeed: string, clientSeed: string, nonce: number): Promise<RandomStream>

export declare const RANKS: ReadonlyArray<string>
export declare const SUITS: ReadonlyArray<string>
export declare function rankOf(card: number): number
export declare function cardLabel(card: number): string

export declare const SYMBOLS: ReadonlyArray<SlotSymbol>
export declare const REEL: ReadonlyArray<SlotSymbol>
export declare const SLOT_PAYS: Readonly<Record<SlotSymbol, number>>
export declare const TWO_CHERRIES_PAY: number

export declare const GAMES: Readonly<Record<GameCode, GameRules>>

export declare function draw(game: GameCode, serverSeed: string, clientSeed: string, nonce: number): Promise<Outcome>
export declare function returnRates(outcome: Outcome): Readonly<Record<string, number>>
export declare function payout(outcome: Outcome, bets: Readonly<Record<string, number>>): number
export declare function verifyRound(round: {
  readonly game: GameCode
  readonly serverSeed: string
  readonly clientSeed: string
  readonly nonce: number
  readonly commit: string
  readonly outcome: unknown
}): Promise<{ commitMatches: boolean; outcomeMatches: boolean; outcome: Outcome }>
export declare function canonical(value: unknown): string
