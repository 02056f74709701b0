import "swiper/css"
import "swiper/css/pagination"
import { useEffect, useRef } from "react"
import { A11y, Pagination } from "swiper/modules"
import { Swiper, SwiperSlide } from "swiper/react"
import type { Swiper as SwiperClass } from "swiper/types"

/** Breakpoints of SPEC section 9 (0, 500 and 992 px) with the slides shown at each. */
export interface SlideCounts {
  readonly base: number
  readonly sm: number
  readonly lg: number
}

/**
 * Autoplay: the next slide every `delayMs` (the first again after the last when the slides do not loop), counted
 * afresh after every change (a swipe included), paused while the pointer is over the slider. A timer, not Swiper's
 * Autoplay module: that one runs a requestAnimationFrame loop for its time-left events for as long as it plays, and
 * a frame on every display refresh makes the page restyle and repaint its animations each time (on the home page,
 * about 85 % of the main thread's work once the page has settled).
 */
const useAutoplay = (swiper: React.RefObject<SwiperClass | null>, delayMs: number) => {
  useEffect(() => {
    const slider = swiper.current
    if (!slider) return
    let timer: ReturnType<typeof setTimeout> | undefined
    let hovered = false
    const schedule = () => {
      clearTimeout(timer)
      if (hovered || slider.destroyed) return
      timer = setTimeout(() => {
        if (slider.isEnd && !slider.params.loop) slider.slideTo(0)
        else slider.slideNext()
      }, delayMs)
    }
    const pause = () => {
      hovered = true
      clearTimeout(timer)
    }
    const resume = () => {
      hovered = false
      schedule()
    }
    slider.el.addEventListener("mouseenter", pause)
    slider.el.addEventListener("mouseleave", resume)
    slider.on("slideChange", schedule)
    schedule()
    return () => {
      clearTimeout(timer)
      slider.el?.removeEventListener("mouseenter", pause)
      slider.el?.removeEventListener("mouseleave", resume)
      if (!slider.destroyed) slider.off("slideChange", schedule)
    }
  }, [swiper, delayMs])
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

const Slider = <T,>({ items, keyOf, render, autoplayMs, counts, label, gap = 8 }: SliderProps<T>) => {
  const swiper = useRef<SwiperClass | null>(null)
  useAutoplay(swiper, autoplayMs)
  return (
    <Swiper
      onSwiper={(instance) => {
        swiper.current = instance
      }}
      modules={[Pagination, A11y]}
      aria-label={label}
      loop={items.length > counts.lg}
      spaceBetween={gap}
      slidesPerView={counts.base}
      breakpoints={{ 0: { slidesPerView: counts.base }, 500: { slidesPerView: counts.sm }, 992: { slidesPerView: counts.lg } }}
      pagination={{ clickable: true }}
      a11y={{ enabled: true }}
    >
      {items.map((item, index) => (
        <SwiperSlide key={keyOf(item)}>{render(item, index)}</SwiperSlide>
      ))}
    </Swiper>
  )
}

export default Slider
