// The Khel Originals table in the player's browser: reads the launch token
// from the address, shows the balance and the next round's seed hash, takes
// bets with chips, plays rounds through the provider's API and verifies them
// with fair.js, the same file the provider's server draws with.
import { cardLabel, verifyRound } from "./fair.js"

const $ = (id) => document.getElementById(id)
const game = document.body.dataset.game
const token = new URLSearchParams(location.search).get("token") ?? ""
const rupees = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", minimumFractionDigits: 2 })
const whole = new Intl.NumberFormat("en-IN")

const state = { bets: {}, lastBets: null, commit: "", nonce: 0, busy: false, lastRound: null }

const randomSeed = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("")

const api = async (path, body) => {
  let response
  try {
    response = await fetch(`/games/khel/api/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })
  } catch {
    throw Object.assign(new Error("The table cannot be reached. Check your connection."), { code: 0 })
  }
  const json = await response.json().catch(() => null)
  if (!json || !json.meta) throw Object.assign(new Error(`The table answered ${response.status}.`), { code: response.status })
  if (json.meta.code !== 200) throw Object.assign(new Error(json.meta.message), { code: json.meta.code })
  return json.data
}

const say = (text) => {
  $("message").textContent = text
}

const total = () => Object.values(state.bets).reduce((sum, amount) => sum + amount, 0)

const renderBets = () => {
  for (const button of document.querySelectorAll(".spot")) {
    const amount = state.bets[button.dataset.spot] ?? 0
    $(`stake-${button.dataset.spot}`).textContent = amount ? `₹${whole.format(amount)}` : "No bet"
    button.classList.toggle("has-bet", amount > 0)
  }
  $("total").textContent = `₹${whole.format(total())}`
  $("play").disabled = state.busy || total() === 0 || !state.commit
  $("clear").disabled = state.busy || total() === 0
  $("rebet").disabled = state.busy || !state.lastBets
}

const renderTable = (table) => {
  $("balance").textContent = rupees.format(table.balance)
  state.commit = table.commit
  state.nonce = table.nonce
  $("commit").textContent = table.commit
  $("nonce").textContent = String(table.nonce)
  renderHistory(table.history)
  renderBets()
}

const cardNode = (card, extra = "") => {
  const span = document.createElement("span")
  const red = Math.floor(card / 13) === 1 || Math.floor(card / 13) === 2
  span.className = `card${red ? " red" : ""}${extra}`
  span.textContent = cardLabel(card)
  return span
}

const row = (label, cards, highlight) => {
  const div = document.createElement("div")
  div.className = `row${highlight ? " winner" : ""}`
  const name = document.createElement("span")
  name.className = "row-name"
  name.textContent = label
  div.append(name, ...cards)
  return div
}

const WINNERS = { dragon: "Dragon", tiger: "Tiger", tie: "Tie", andar: "Andar", bahar: "Bahar" }

const describe = (outcome) => {
  if (outcome.game === "dragon-tiger") {
    return `${cardLabel(outcome.dragon)} v ${cardLabel(outcome.tiger)}: ${outcome.winner === "tie" ? "Tie" : `${WINNERS[outcome.winner]} wins`}`
  }
  if (outcome.game === "andar-bahar") return `Joker ${cardLabel(outcome.joker)}: ${WINNERS[outcome.winner]} wins`
  return `${outcome.line.join(" · ")}${outcome.multiplier ? ` pays ${outcome.multiplier}x` : ""}`
}

const renderOutcome = (outcome) => {
  const board = $("board")
  board.replaceChildren()
  if (outcome.game === "dragon-tiger") {
    board.append(
      row("Dragon", [cardNode(outcome.dragon)], outcome.winner === "dragon"),
      row("Tiger", [cardNode(outcome.tiger)], outcome.winner === "tiger")
    )
  } else if (outcome.game === "andar-bahar") {
    board.append(
      row("Joker", [cardNode(outcome.joker, " joker")], false),
      row("Andar", outcome.andar.map((c) => cardNode(c)), outcome.winner === "andar"),
      row("Bahar", outcome.bahar.map((c) => cardNode(c)), outcome.winner === "bahar")
    )
  } else {
    const grid = document.createElement("div")
    grid.className = "reels"
    grid.setAttribute("role", "img")
    grid.setAttribute("aria-label", `Reels: ${outcome.line.join(", ")}`)
    for (let r = 0; r < 3; r++) {
      for (let reel = 0; reel < 3; reel++) {
        const cell = document.createElement("span")
        const symbol = outcome.reels[reel][r]
        cell.className = `symbol symbol-${symbol}${r === 1 ? " line" : ""}`
        cell.textContent = symbol === "seven" ? "7" : symbol.toUpperCase()
        grid.append(cell)
      }
    }
    board.append(grid)
  }
}

const renderHistory = (rounds) => {
  const body = $("history")
  body.replaceChildren()
  if (rounds.length === 0) {
    const tr = document.createElement("tr")
    const td = document.createElement("td")
    td.colSpan = 4
    td.textContent = "No rounds yet."
    tr.append(td)
    body.append(tr)
    return
  }
  for (const round of rounds) {
    const tr = document.createElement("tr")
    for (const text of [`#${round.nonce}`, describe(round.outcome), rupees.format(round.stake), rupees.format(round.win)]) {
      const td = document.createElement("td")
      td.textContent = text
      tr.append(td)
    }
    body.append(tr)
  }
}

const showLastRound = (round) => {
  state.lastRound = round
  $("last-round").hidden = false
  $("last-commit").textContent = round.commit
  $("last-seed").textContent = round.serverSeed
  $("last-client-seed").textContent = round.clientSeed
  $("last-nonce").textContent = String(round.nonce)
  $("verdict").textContent = ""
}

const load = async () => {
  if (!token) {
    say("This page needs a game link from the lobby. Go back to the lobby and open the game again.")
    return
  }
  try {
    const table = await api("table", { token, game })
    renderTable(table)
    if (table.history[0]) showLastRound(table.history[0])
    say("")
  } catch (error) {
    say(error.message)
  }
}

const play = async () => {
  const clientSeed = $("client-seed").value.trim()
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(clientSeed)) {
    say("Your seed may only use letters, digits, '-' and '_' (at most 64).")
    return
  }
  state.busy = true
  renderBets()
  say("")
  $("result").textContent = ""
  try {
    const bets = { ...state.bets }
    const result = await api("play", { token, game, bets, clientSeed, commit: state.commit })
    renderOutcome(result.round.outcome)
    const won = result.round.win
    $("result").textContent = `${describe(result.round.outcome)}. ${won > 0 ? `You get ${rupees.format(won)}.` : "No win this time."}`
    if (!result.settled) say("Your return is on its way to your wallet; it will show shortly.")
    $("balance").textContent = rupees.format(result.balance)
    showLastRound(result.round)
    state.lastBets = bets
    state.bets = {}
    state.commit = result.next.commit
    state.nonce = result.next.nonce
    $("commit").textContent = state.commit
    $("nonce").textContent = String(state.nonce)
    $("client-seed").value = randomSeed()
    const table = await api("table", { token, game }).catch(() => null)
    if (table) renderHistory(table.history)
  } catch (error) {
    say(error.message)
    // Another window played, or the session ended: show the table as it is now.
    if (error.code === 409) await load()
  } finally {
    state.busy = false
    renderBets()
  }
}

for (const button of document.querySelectorAll(".spot")) {
  button.addEventListener("click", () => {
    if (state.busy) return
    const chip = Number(document.querySelector("input[name=chip]:checked")?.value ?? 0)
    const spot = button.dataset.spot
    const next = (state.bets[spot] ?? 0) + chip
    if (next > Number(document.body.dataset.max)) {
      say(`The most a spot takes is ₹${whole.format(Number(document.body.dataset.max))}.`)
      return
    }
    say("")
    state.bets = { ...state.bets, [spot]: next }
    renderBets()
  })
}

$("clear").addEventListener("click", () => {
  state.bets = {}
  say("")
  renderBets()
})

$("rebet").addEventListener("click", () => {
  if (state.lastBets) state.bets = { ...state.lastBets }
  renderBets()
})

$("play").addEventListener("click", () => void play())

$("verify").addEventListener("click", async () => {
  const round = state.lastRound
  if (!round) return
  const verdict = await verifyRound(round)
  $("verdict").textContent = verdict.commitMatches && verdict.outcomeMatches
    ? "Verified: the seed matches the hash shown before the round, and the seeds give this outcome."
    : verdict.commitMatches
      ? "The seed matches its hash, but the seeds give another outcome."
      : "The seed does not match the hash shown before the round."
})

$("client-seed").value = randomSeed()
renderBets()
void load()
