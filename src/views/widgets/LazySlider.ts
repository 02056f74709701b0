import { lazy } from "react"
import type { SliderProps } from "./Slider.tsx"

/** The swiper wrapper as a lazy chunk. Generic components lose their type parameter through `lazy`; this restores it. */
export const LazySlider = lazy(() => import("./Slider.tsx")) as unknown as <T>(props: SliderProps<T>) => React.ReactNode
