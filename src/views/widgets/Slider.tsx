import "swiper/css"
import "swiper/css/pagination"
import { A11y, Autoplay, Pagination } from "swiper/modules"
import { Swiper, SwiperSlide } from "swiper/react"

/** Breakpoints of SPEC section 9 (0, 500 and 992 px) with the slides shown at each. */
export interface SlideCounts {
  readonly base: number
  readonly sm: number
  readonly lg: number
}

/** Every slider of the site: swiper with autoplay that pauses on hover, pagination and a11y labels. */
export interface SliderProps<T> {
  readonly items: ReadonlyArray<T>
  readonly keyOf: (item: T) => string
  readonly render: (item: T, index: number) => React.ReactNode
  readonly autoplayMs: number
  readonly counts: SlideCounts
  readonly label: string
  readonly gap?: number
}

const Slider = <T,>({ items, keyOf, render, autoplayMs, counts, label, gap = 8 }: SliderProps<T>) => (
  <Swiper
    modules={[Autoplay, Pagination, A11y]}
    aria-label={label}
    loop={items.length > counts.lg}
    spaceBetween={gap}
    slidesPerView={counts.base}
    breakpoints={{ 0: { slidesPerView: counts.base }, 500: { slidesPerView: counts.sm }, 992: { slidesPerView: counts.lg } }}
    autoplay={{ delay: autoplayMs, disableOnInteraction: false, pauseOnMouseEnter: true }}
    pagination={{ clickable: true }}
    a11y={{ enabled: true }}
  >
    {items.map((item, index) => (
      <SwiperSlide key={keyOf(item)}>{render(item, index)}</SwiperSlide>
    ))}
  </Swiper>
)

export default Slider
