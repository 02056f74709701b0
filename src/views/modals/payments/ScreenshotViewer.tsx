import { Dialog } from "../../widgets/Dialog.tsx"

/** The Uploaded Screenshot viewer: the picked or stored payment screenshot, full size. */
export const ScreenshotViewer = ({ open, image, name, onClose }: { open: boolean; image: string | undefined; name?: string | undefined; onClose: () => void }) => (
  <Dialog open={open} title="Uploaded Screenshot" onClose={onClose} wide testId="screenshot-viewer">
    {image ? (
      <figure className="m-0 flex flex-col items-center gap-2">
        <img src={image} alt={name ? `Payment screenshot ${name}` : "Payment screenshot"} className="max-h-[70vh] w-auto rounded-md border border-line object-contain" />
        {name ? <figcaption className="text-xs text-muted">{name}</figcaption> : null}
      </figure>
    ) : (
      <p className="m-0 text-center text-muted" role="status">Loading the screenshot…</p>
    )}
  </Dialog>
)
