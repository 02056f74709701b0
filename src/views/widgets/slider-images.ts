export const LOADER_IMAGE = "/loader.svg"

/** Replaces a broken image by the loader picture, once. */
export const fallbackToLoader = (event: React.SyntheticEvent<HTMLImageElement>) => {
  const img = event.currentTarget
  if (!img.src.endsWith(LOADER_IMAGE)) img.src = LOADER_IMAGE
}
