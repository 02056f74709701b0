import { Context, Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { existsSync, readFileSync, statSync } from "node:fs"
import { extname, join, normalize, sep } from "node:path"
import { ServerConfig } from "../config.ts"
import { accepts } from "./compression.ts"
import { failureResponse } from "./envelopes.ts"
import { SITE_CSP, siteCsp } from "./headers.ts"
import { Visitors } from "./visitors.ts"

const IMMUTABLE = "public, max-age=31536000, immutable"
const SHORT = "public, max-age=3600"

/**
 * Hashed assets for a year; the service worker's script revalidated on every use, so an open tab learns of a new
 * build when it checks (src/root/flows/appUpdate.ts); other files for an hour.
 */
const cacheControlOf = (pathname: string) => (pathname.startsWith("/assets/") ? IMMUTABLE : pathname === "/sw.js" ? "no-cache" : SHORT)

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".webp": "image/webp",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8"
}

/** Compressed twins written at build time, best first: brotli's are 10–15 % smaller than gzip's on our scripts. */
const TWINS = [{ coding: "br", suffix: ".br" }, { coding: "gzip", suffix: ".gz" }] as const

const isFile = (path: string) => {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** A resource a page paints first (its largest paint) that only the server can name. */
export interface FirstResource {
  readonly href: string
  readonly as: "image"
}

/**
 * What a page paints first that only the server can name (a lobby's first
 * card), by path. It goes with index.html as a `Link` preload at high
 * priority, so the browser fetches it beside the JavaScript instead of once
 * the JavaScript has rendered the page. Never fails: a page without it is
 * only slower.
 */
export class FirstResources extends Context.Service<FirstResources, {
  readonly of: (pathname: string) => Effect.Effect<ReadonlyArray<FirstResource>>
}>()("khel/FirstResources") {}

/**
 * The `Link` header of a page's first resources and the build's first files (scripts, and the image the build
 * knows the page paints largest); a URL that would need escaping is left out: it only costs the head start.
 */
const linkHeader = (resources: ReadonlyArray<FirstResource>, files: ReadonlyArray<string>): Record<string, string> => {
  const safe = (href: string) => /^[\w\-./:%]+$/.test(href)
  const images = files.filter((href) => !href.endsWith(".js")).map((href) => ({ href, as: "image" as const }))
  const links = [
    ...[...images, ...resources].filter((resource) => safe(resource.href)).map((resource) => `<${resource.href}>; rel=preload; as=${resource.as}; fetchpriority=high`),
    ...files.filter((href) => href.endsWith(".js") && safe(href)).map((href) => `<${href}>; rel=modulepreload`)
  ]
  return links.length > 0 ? { link: links.join(", ") } : {}
}

/** The build's files by path that a page needs first (vite.config.ts `firstChunks`); none for a build without it. */
const readFirstChunks = (distDir: string): Readonly<Record<string, ReadonlyArray<string>>> => {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(distDir, "first-chunks.json"), "utf8"))
    if (typeof parsed !== "object" || parsed === null) return {}
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, Array<string>] =>
      Array.isArray(entry[1]) && entry[1].every((href) => typeof href === "string")
    ))
  } catch {
    return {}
  }
}

/**
 * Serves the built site: hashed assets cached for a year, the service worker
 * revalidated on each use, other files for an hour, and `index.html` (never
 * cached, with the page's first resources) for every other path, itself
 * included, so client-side routes work on reload. A `.br` or `.gz`
 * twin made at build time is sent to clients that take it.
 */
export const SiteRoutes = Layer.unwrap(Effect.gen(function*() {
  const { distDir } = yield* ServerConfig
  const firstResources = yield* FirstResources
  const visitors = yield* Visitors
  const root = normalize(distDir + sep)
  const index = join(distDir, "index.html")

  // index.html carries the app's stylesheet inline (vite.config.ts): its policy allows that text by its hash. It
  // and the build's first scripts by path are read again when a new build replaces the file.
  let page: { readonly modified: number; readonly csp: string; readonly firstChunks: Readonly<Record<string, ReadonlyArray<string>>> } | undefined
  const build = () => {
    const modified = statSync(index).mtimeMs
    if (page?.modified !== modified) {
      const styles = [...readFileSync(index, "utf8").matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]!)
      page = { modified, csp: siteCsp(styles), firstChunks: readFirstChunks(distDir) }
    }
    return page
  }

  /** The build's twin of `path` in the best coding the client takes (scripts/compress.ts), or none. */
  const twinFor = (request: HttpServerRequest.HttpServerRequest, path: string) =>
    TWINS.find((twin) => accepts(request, twin.coding) && isFile(path + twin.suffix))

  const sendFile = (request: HttpServerRequest.HttpServerRequest, path: string, cacheControl: string, headers: Record<string, string> = {}) => {
    const twin = twinFor(request, path)
    return HttpServerResponse.file(twin ? path + twin.suffix : path, {
      contentType: TYPES[extname(path)] ?? "application/octet-stream",
      headers: {
        ...headers,
        "cache-control": cacheControl,
        vary: "accept-encoding",
        ...(twin ? { "content-encoding": twin.coding } : {})
      }
    })
  }

  const site = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function*() {
      if (!existsSync(index)) {
        return HttpServerResponse.text("The site is not built yet: run `npm run build`, then start the server again.", { status: 503 })
      }
      const pathname = decodeURIComponent(new URL(request.url, "http://site").pathname)
      const candidate = normalize(join(distDir, pathname))
      // Source maps are built for an error tracker, never served: they would hand out the source. index.html itself
      // is the page below (with its policy): the service worker keeps that copy for every navigation.
      if (candidate.startsWith(root) && candidate !== index && isFile(candidate) && !TWINS.some((twin) => candidate.endsWith(twin.suffix)) && !candidate.endsWith(".map")) {
        return yield* sendFile(request, candidate, cacheControlOf(pathname))
      }
      if (extname(pathname) !== "" && extname(pathname) !== ".html") {
        return HttpServerResponse.text("Not found", { status: 404 })
      }
      // The operator's desk is an app of its own (admin.html, vite.desk.config.ts), with its own routes under /admin.
      if (pathname === "/admin" || pathname.startsWith("/admin/")) {
        const desk = join(distDir, "admin.html")
        if (!existsSync(desk)) return HttpServerResponse.text("The desk is not built yet: run `npm run build`.", { status: 503 })
        return yield* sendFile(request, desk, "no-cache", { "content-security-policy": SITE_CSP })
      }
      const first = yield* firstResources.of(pathname)
      const { csp, firstChunks } = build()
      // The page gives its browser the visitor cookie (edge/visitors.ts): what the vitals beacon and a sign-in carry.
      const cookie = yield* visitors.cookieFor(request)
      return yield* sendFile(request, index, "no-cache", {
        "content-security-policy": csp,
        ...linkHeader(first, firstChunks[pathname] ?? []),
        ...(cookie ? { "set-cookie": cookie } : {})
      })
    }).pipe(Effect.catch(() => Effect.succeed(HttpServerResponse.text("Not found", { status: 404 }))))

  /** Unknown API paths answer like the API does, never with the site. */
  const unknownApi = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.succeed(failureResponse(404, `There is no ${request.method} ${new URL(request.url, "http://site").pathname}.`))

  // Every method but HEAD, which the router answers with the GET route of the same path (headers, no body).
  const methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const
  return Layer.mergeAll(
    HttpRouter.add("GET", "/*", site),
    ...methods.flatMap((method) => [HttpRouter.add(method, "/api/*", unknownApi), HttpRouter.add(method, "/identity/*", unknownApi)])
  )
}))
