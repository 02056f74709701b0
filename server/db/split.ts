/**
 * Splits a migration file into statements. The PostgreSQL extended protocol
 * takes one statement at a time; this honours quotes, dollar-quoted bodies and
 * comments, so functions and triggers can live in plain .sql files.
 */
export const splitStatements = (source: string): Array<string> => {
  const statements: Array<string> = []
  let current = ""
  let i = 0
  while (i < source.length) {
    const ch = source[i]!
    const rest = source.slice(i)
    if (rest.startsWith("--")) {
      const end = source.indexOf("\n", i)
      i = end === -1 ? source.length : end + 1
      current += "\n"
      continue
    }
    if (rest.startsWith("/*")) {
      const end = source.indexOf("*/", i + 2)
      i = end === -1 ? source.length : end + 2
      continue
    }
    if (ch === "'" || ch === "\"") {
      let j = i + 1
      while (j < source.length) {
        if (source[j] === ch) {
          if (source[j + 1] === ch) j += 2
          else break
        } else j++
      }
      current += source.slice(i, j + 1)
      i = j + 1
      continue
    }
    const dollar = /^\$[A-Za-z_]*\$/.exec(rest)
    if (dollar) {
      const tag = dollar[0]
      const end = source.indexOf(tag, i + tag.length)
      const stop = end === -1 ? source.length : end + tag.length
      current += source.slice(i, stop)
      i = stop
      continue
    }
    if (ch === ";") {
      if (current.trim()) statements.push(current.trim())
      current = ""
      i++
      continue
    }
    current += ch
    i++
  }
  if (current.trim()) statements.push(current.trim())
  return statements
}
