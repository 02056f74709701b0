/**
 * The preloader's markup (SPEC sections 2 and 4), without the app actor: the
 * app renders it with the startup progress, and the build renders it at 0 %
 * into index.html (vite.config.ts), so it paints before any JavaScript runs.
 */
export const PreloaderView = ({ progress, message }: { readonly progress: number; readonly message: string }) => (
  <div className="fixed inset-0 z-[100] flex flex-col items-center justify-center gap-5 bg-bg" data-testid="preloader">
    <img src="/favicon.svg" alt="" width={64} height={64} className="animate-pulse" />
    <div
      role="progressbar"
      aria-label="Loading Khel"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={progress}
      className="h-2 w-64 overflow-hidden rounded-full bg-raised"
    >
      {/* No style attribute at 0 %: the build's HTML carries none, which the CSP (no inline style) would refuse.
          The bar scales rather than widens: a transform is composited, a width repainted the bar on every tick. */}
      <div
        className="h-full w-full origin-left scale-x-0 bg-brand transition-transform duration-150"
        style={progress > 0 ? { transform: `scaleX(${progress / 100})` } : undefined}
      />
    </div>
    <p className="m-0 text-sm text-muted" aria-live="polite">
      <span className="font-700 text-fg" data-testid="preloader-percent">{progress}%</span> · {message}
    </p>
  </div>
)
