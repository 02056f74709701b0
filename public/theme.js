// Applies the stored theme before the first paint (no flash of the wrong theme). A file of its own rather
// than an inline script: the Content-Security-Policy runs no inline script at all.
try {
  document.documentElement.dataset.theme = localStorage.getItem("theme") === "light" ? "light" : "dark"
} catch {}
