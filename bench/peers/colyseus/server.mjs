// The peer scenario of bench/bench_server.py (issue 16): a Colyseus room doing the work of our
// bench command. Its state is a fight with four combatants; one "move" changes one HP value and
// appends a roll, and the patch is broadcast at once (no patch interval). Colyseus keeps the room
// in memory and persists nothing. Usage: node server.mjs PORT  (prints "listening" when ready)
import { Server, Room } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { schema } from "@colyseus/schema";

const Condition = schema({ hp: "number", fp: "number", posture: "string", shock: "number", stunned: "boolean" }, "Condition");
const Combatant = schema({ id: "string", name: "string", side: "string", st: "number", dx: "number", ht: "number",
  condition: Condition }, "Combatant");
const Roll = schema({ by: "string", total: "number", faces: ["number"] }, "Roll");
const Fight = schema({ seq: "number", title: "string", combatants: { map: Combatant }, rolls: [Roll] }, "Fight");

class FightRoom extends Room {
  onCreate() {
    this.maxClients = 10000;
    this.autoDispose = false;
    this.setPatchRate(null); // patches go out when a move is handled, not on a timer
    const state = new Fight();
    state.seq = 1;
    state.title = "bench";
    for (const [id, side] of [["a", "pc"], ["b", "pc"], ["c", "npc"], ["d", "npc"]]) {
      const c = new Combatant();
      Object.assign(c, { id, name: id.toUpperCase(), side, st: 12, dx: 12, ht: 11 });
      c.condition = new Condition();
      Object.assign(c.condition, { hp: 12, fp: 11, posture: "standing", shock: 0, stunned: false });
      state.combatants.set(id, c);
    }
    this.setState(state);
    this.onMessage("move", (_client, m) => {
      this.state.combatants.get("c").condition.hp = m.hp;
      const roll = new Roll();
      roll.by = "gm";
      roll.total = m.hp;
      roll.faces.push(m.hp % 6 + 1);
      this.state.rolls.push(roll);
      if (this.state.rolls.length > 64) this.state.rolls.shift(); // a bounded log, as our clients keep theirs
      this.state.seq += 1;
      this.broadcastPatch();
    });
  }
}

const server = new Server({ transport: new WebSocketTransport() });
server.define("fight", FightRoom);
await server.listen(Number(process.argv[2]), "127.0.0.1");
console.log("listening");
