// N colyseus.js clients in one process (as bench_server.py's are in one Python process): the first
// sends a move, the time until the last of them has the new state is recorded. Prints one JSON line:
// p50_ms, p99_ms, bytes_per_update (what one client received per move).
// Usage: node client.mjs URL CLIENTS MOVES
import { Client } from "colyseus.js";

const [url, n, moves] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const client = new Client(url);
const rooms = [await client.joinOrCreate("fight")];
for (let i = 1; i < n; i++) rooms.push(await client.joinById(rooms[0].roomId));
let bytes = 0;
rooms[0].connection.transport.ws.addEventListener("message", (e) => { bytes += e.data.byteLength ?? e.data.length; });
let want = 0, seen = 0, last = 0, done = null;
for (const room of rooms) {
  room.onStateChange((state) => {
    if (state.seq === want && ++seen === n) { last = performance.now(); done(); }
  });
}
await new Promise((r) => setTimeout(r, 200));
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.round(p / 100 * (s.length - 1)))]; };
const latencies = [];
const warm = Math.min(50, Math.floor(moves / 5));
let seq = rooms[0].state.seq;
let b0 = 0;
for (let i = 0; i < moves + warm; i++) {
  if (i === warm) b0 = bytes;
  want = ++seq; seen = 0;
  const arrived = new Promise((r) => { done = r; });
  const t0 = performance.now();
  rooms[0].send("move", { hp: 5 + (i % 7) });
  await arrived;
  if (i >= warm) latencies.push(last - t0);
}
console.log(JSON.stringify({ p50_ms: pct(latencies, 50), p99_ms: pct(latencies, 99), bytes_per_update: (bytes - b0) / moves }));
for (const room of rooms) await room.leave();
process.exit(0);
