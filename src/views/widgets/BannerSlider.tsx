import { Suspense } from "react"
import type { Banner } from "../../schema/settings.ts"
import { AppActor } from "../app-actor.ts"
import { useIdleAfterStart } from "./idle.tsx"
import { LazySlider } from "./LazySlider.ts"
import { fallbackToLoader } from "./slider-images.ts"

export const BANNER_AUTOPLAY_MS = 5000


const BannerImage = ({ banner, eager }: { banner: Banner; eager: boolean }) => (
  <img
    src={banner.baseImage}
    alt={banner.title}
    width={1200}
    height={400}
    loading={eager ? "eager" : "lazy"}
    onError={fallbackToLoader}
    className="block aspect-[3/1] w-full object-cover"
  />
)

/**
 * Home banners, in `order`, one per view, every 5 s. The first banner shows
 * at once as a plain image; the carousel code loads once the site has started
 * and the browser is idle.
 */
export const BannerSlider = () => {
  const banners = AppActor.useSelector((s) => s.context.banners)
  const idle = useIdleAfterStart()
  if (banners.length === 0) return <div className="aspect-[3/1] w-full rounded-lg bg-raised" aria-hidden="true" />
  const sorted = [...banners].sort((a, b) => a.order - b.order)
  const first = <BannerImage banner={sorted[0]!} eager />
  return (
    <div className="overflow-hidden rounded-lg" data-testid="banner-slider">
      {idle ? (
        <Suspense fallback={first}>
          <LazySlider
            label="Offers"
            items={sorted}
            keyOf={(banner) => banner._id}
            autoplayMs={BANNER_AUTOPLAY_MS}
            counts={{ base: 1, sm: 1, lg: 1 }}
            gap={0}
            render={(banner, index) => <BannerImage banner={banner} eager={index === 0} />}
          />
        </Suspense>
      ) : first}
    </div>
  )
}
