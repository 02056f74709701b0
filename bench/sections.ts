import { homeWeight } from "./home-weight.ts"

export interface Section {
  readonly name: string
  readonly title: string
  readonly run: () => Promise<void>
}

/** Every figure `npm run bench` prints, in order. */
export const sections: Array<Section> = [
  { name: "home", title: "Home page weight before it is interactive (gzip, as transferred)", run: homeWeight }
]
