export const PageLoading = () => (
  <div role="status" aria-live="polite" className="flex items-center justify-center py-16 text-muted">
    <span className="inline-block h-5 w-5 animate-spin rounded-full border-2 border-line border-t-brand" aria-hidden="true" />
    <span className="ml-3">Loading…</span>
  </div>
)
