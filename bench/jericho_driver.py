"""Jericho side of `npm run bench:jericho` (see bench/jericho.ts).

Reads one JSON request per line on stdin and writes one JSON reply per line on the
original stdout; everything else (warnings, anything the C library prints) goes to
stderr. Every reply has "ok"; a failed request replies {"ok": false, "error", "traceback"}.

Requests:
  {"op": "load", "rom": path}          load and reset the story (Jericho's walkthrough seed)
  {"op": "observe"}                    RAM (base64), random state and object tree of the current state
  {"op": "valid", "parallel": bool}    Jericho's valid-action groups here, timed
  {"op": "test", "commands": [...], "probe": str|null, "responses": n}
                                       Jericho's effect test applied to given commands
  {"op": "step", "command": str}       play one command
  {"op": "facts"}                      the player object number and how many objects Jericho reads
  {"op": "ram"}                        RAM (base64) only, with score and moves (bench:groundtruth)
  {"op": "quit"}

spaCy is never loaded: Jericho's noun tagger (jericho.util.extract_objs, which would
need spaCy's en_core_web_sm model) is replaced with one that reads the parts of
speech the story's own dictionary gives its words.
"""

import base64
from collections import defaultdict
import json
import os
import re
import sys
import tempfile
import time
import traceback

# The protocol owns the real stdout; fd 1 now points at stderr so nothing else can
# write into the reply stream (frotz, pool workers forked later, stray prints).
_reply_stream = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
os.dup2(2, 1)
sys.stdout = sys.stderr

# A game told to save (a candidate, a walkthrough command) writes into the working directory.
os.chdir(tempfile.mkdtemp(prefix="grue-jericho-"))

# Make any attempt to import spaCy fail loudly instead of downloading a model.
sys.modules["spacy"] = None  # type: ignore[assignment]

import warnings  # noqa: E402

warnings.simplefilter("ignore")

import jericho  # noqa: E402
import jericho.util  # noqa: E402
from jericho.version import __version__ as JERICHO_VERSION  # noqa: E402

NOUN_TAGGER = "jericho dictionary flags (spaCy en_core_web_sm not installable from a registry)"


def _no_spacy():
    raise RuntimeError("spaCy must not be loaded by bench:jericho")


jericho.util._load_spacy = _no_spacy


class DictionaryTagger:
    """Stands in for extract_objs: a word is a NOUN (or ADJ) when the dictionary says so."""

    def __init__(self, env):
        words = env.get_dictionary()
        self.length = max(len(w.word) for w in words)
        self.nouns = {w.word for w in words if w.is_noun}
        self.adjectives = {w.word for w in words if w.is_adj and not w.is_noun}

    def __call__(self, text):
        tags = set()
        for token in re.split(r"[^a-z]+", text.lower()):
            if not token:
                continue
            stored = token[: self.length]
            if stored in self.nouns:
                tags.add((token, "NOUN"))
            elif stored in self.adjectives:
                tags.add((token, "ADJ"))
        return tags


SECTIONS = ("move", "set", "clear", "ram")


# Inform's workflag (attribute 25) is parser scratch, flipped by commands that change nothing.
WORKFLAG_BYTE, WORKFLAG_BIT = 25 // 8, 0x80 >> (25 % 8)
# The banner a story prints when it ends ("*** You have died ***", "*** The End ***"), whatever
# texts Jericho's binding for the game looks for.
END_BANNER = re.compile(r"\*{3,}[^*\n]{2,60}\*{3,}")
FINAL_WORDS = [re.compile(r"\b%s\b" % w, re.I) for w in ("restart", "restore", "quit")]


def ended_reply(response):
    """A game's end as grue reads it (src/engine/finalQuestion.ts): a banner, or the final question (RESTART, RESTORE and QUIT in the last four lines), which Enchanter's deaths ask without Jericho's game_over()."""
    ending = " ".join([line.strip() for line in response.split("\n") if line.strip()][-4:])
    return bool(END_BANNER.search(response)) or all(w.search(ending) for w in FINAL_WORDS)


def diff_key(diff):
    """A Jericho world diff (numpy uint16 row) as a string. The ctypes filter writes 64 objects
    then 64 destinations, in four sections of 16 (moved to, attribute set, attribute cleared,
    special RAM address and value); each nonzero entry is kept with its section and slot, so
    equal strings mean equal rows."""
    values = [int(v) for v in diff]
    if len(values) != 128:
        return ",".join(str(v) for v in values)
    parts = []
    for i in range(64):
        if values[i] or values[64 + i]:
            parts.append(f"{SECTIONS[i // 16]}{i % 16}:{values[i]}>{values[64 + i]}")
    return " ".join(parts) or "none"


class Driver:
    def __init__(self):
        self.env = None
        self.pool_ready = False

    # --- requests -----------------------------------------------------------------

    def load(self, req):
        rom = req["rom"]
        if not os.path.isfile(rom):
            raise FileNotFoundError(rom)
        if self.env is not None and hasattr(self.env, "pool"):
            self.env.pool.terminate()
        self.pool_ready = False
        self.env = jericho.FrotzEnv(rom)  # seed: the walkthrough's, from the bindings
        env = self.env
        if not env.is_fully_supported or not env.bindings:
            raise RuntimeError(f"Jericho does not fully support {rom}")
        # Read the dictionary once: Jericho reads it again on every get_valid_actions, and that
        # second read never returns on some stories (sherlock), while the words cannot change.
        words = env.get_dictionary()
        env.get_dictionary = lambda: words
        jericho.util.extract_objs = DictionaryTagger(env)
        tagger = jericho.util.extract_objs
        intro, _ = env.reset()
        return {
            "name": env.bindings.get("name"),
            "seed": env._seed,
            "walkthrough": env.get_walkthrough(),
            "wordLength": tagger.length,
            "nouns": len(tagger.nouns),
            "adjectives": len(tagger.adjectives),
            "intro": intro,
        }

    def observe(self, req):
        env = self.env
        state = env.get_state()
        ram = state[0]
        # frotz's generator (A, interval, counter); A is a C long whose low 32 bits are all a draw reads.
        a, interval, counter = state[7]
        objects = []
        for o in list(env.get_world_objects())[1:]:
            attr = bytes((b & 0xFF) for b in o._attr).hex()
            objects.append([int(o.num), int(o.parent), attr])
        return {
            "ram": base64.b64encode(ram.tobytes()).decode("ascii"),
            "rng": {"a": int(a) & 0xFFFFFFFF, "interval": int(interval), "counter": int(counter)},
            "objects": objects,
            "score": int(env.get_score()),
            "moves": int(env.get_moves()),
            "done": bool(env.game_over() or env.victory()),
        }

    def _valid(self, parallel):
        """Jericho's get_valid_actions(use_object_tree=True, use_ctypes=True), step by step, so the groups are kept."""
        env = self.env
        objs = env._identify_interactive_objects(use_object_tree=True)
        names = env._score_object_names(objs)
        candidates = env.act_gen.generate_actions(names)
        diff2acts, halted = self._filter_here(candidates, parallel)
        return names, candidates, diff2acts, halted

    def _filter_here(self, candidates, parallel=False):
        """Jericho's filter from the current state, and whether a candidate halted its emulator:
        the filter then calls reset() and keeps only the groups found before the halt."""
        env = self.env
        halted = []
        reset = env.reset
        env.reset = lambda *a, **k: (halted.append(True), reset(*a, **k))[1]
        try:
            groups = env._filter_candidate_actions(candidates, use_ctypes=True, use_parallel=parallel)
        finally:
            del env.reset
        return groups, bool(halted)

    def valid(self, req):
        env = self.env
        state = env.get_state()
        t0 = time.perf_counter()
        names, candidates, first, halted = self._valid(False)
        ms = (time.perf_counter() - t0) * 1000
        # Jericho's search, timed above, stops at a candidate that halts its emulator; the groups
        # are those of every candidate, the halting ones aside (found by halving, untimed).
        halting = []
        diff2acts = self._halves(candidates, state, halting) if halted else first
        self._restore(state)
        slots = self._slots(names)
        groups = [
            {"key": diff_key(k), "actions": list(v), "net": self._net_change(k, v[0]), "objects": min(slots.get(a, 2) for a in v)}
            for k, v in diff2acts.items()
        ]
        reply = {"ms": ms, "candidates": len(candidates), "objectNames": names, "groups": groups, "haltingCount": len(halting)}
        if req.get("parallel"):
            state = env.get_state()
            try:
                if not self.pool_ready:
                    # The pool is created on first use; keep its start-up out of the timing.
                    env._filter_candidate_actions(["look"], use_ctypes=True, use_parallel=True)
                    self._restore(state)
                    self.pool_ready = True
                t0 = time.perf_counter()
                _, _, par, _ = self._valid(True)
                reply["parallelMs"] = (time.perf_counter() - t0) * 1000
                reply["parallelSameKeys"] = {diff_key(k) for k in par} == {diff_key(k) for k in first}
            except Exception as e:  # the serial result stands; the caller stops asking
                reply["parallelError"] = f"{type(e).__name__}: {e}"
            self._restore(state)
        return reply

    def _filter_all(self, candidates, state, halting):
        """Every candidate's group from `state`, the halting candidates left out (and listed in `halting`)."""
        self._restore(state)
        groups, halted = self._filter_here(candidates)
        return self._halves(candidates, state, halting) if halted else groups

    def _halves(self, candidates, state, halting):
        """A filter that halted, run again on each half, down to the halting candidates themselves."""
        if len(candidates) == 1:
            halting.append(candidates[0])
            return {}
        mid = len(candidates) // 2
        merged = defaultdict(list)
        for part in (candidates[:mid], candidates[mid:]):
            for k, v in self._filter_all(part, state, halting).items():
                merged[k].extend(v)
        return merged

    def _restore(self, state):
        """Back to a saved state. A command can halt Jericho's emulator (sherlock: "pour out coat on
        hat"), and set_state does not clear the halt: every later step would report the game over.
        Jericho's own filter resets a halted emulator before going on (its docs: "to fix a halted
        game, use reset"); so do we."""
        if self.env._emulator_halted():
            self.env.reset()
        self.env.set_state(state)

    def _slots(self, names):
        """How many object slots each candidate fills (0, 1 or 2), from the template it was made from."""
        out = {}
        for template in self.env.act_gen.templates:
            n = template.count("OBJ")
            for action in self._fill(template, n, names):
                out[action] = min(out.get(action, n), n)
        return out

    @staticmethod
    def _fill(template, n, names):
        if n <= 0:
            return [template]
        if n == 1:
            return [template.replace("OBJ", o) for o in names]
        return [template.replace("OBJ", a, 1).replace("OBJ", b, 1) for a in names for b in names if a != b]

    def _net_change(self, key, action):
        """Whether an action of a group leaves the world different: Jericho's diff records every
        @insert_obj, @set_attr and @clear_attr a turn executes, so a turn that sets and clears the
        same attribute (parser scratch) is a group of its own though nothing changed."""
        if "ram" in diff_key(key):
            return True
        env = self.env
        state = env.get_state()
        before, score = self._tree(workflag=not self._inform()), env.get_score()
        response = env.step(action)[0]
        changed = self._tree(workflag=not self._inform()) != before or env.get_score() != score or bool(env.game_over() or env.victory() or ended_reply(response))
        self._restore(state)
        return changed

    def test(self, req):
        """Jericho's own effect test on the given commands: each command's effect key, or None."""
        env = self.env
        commands = req["commands"]
        state = env.get_state()
        testable = [c for c in commands if ";" not in c and c.strip()]
        keys = {}
        # One command at a time: in a batch, a command that halts Jericho's emulator (sherlock:
        # "pour out black bag on coat") leaves every command after it without a key.
        for c in testable:
            self._restore(state)
            for k, acts in env._filter_candidate_actions([c], use_ctypes=True, use_parallel=False).items():
                for a in acts:
                    keys[a] = diff_key(k)
        self._restore(state)
        lowered = {a.strip().lower(): k for a, k in keys.items()}
        out = [keys.get(c, lowered.get(c.strip().lower())) for c in commands]
        probe_key = None
        if req.get("probe"):
            probe = req["probe"]
            for k in env._filter_candidate_actions([probe], use_ctypes=True, use_parallel=False):
                probe_key = diff_key(k)
        # A command that fails the test may still change Jericho's own world in a way its diff
        # does not record (an object moved to parent 0: eaten, washed away) or end the game.
        responses = {}
        unseen = {}
        before = self._tree()
        for c, k in zip(commands, out):
            if k is not None:
                continue
            self._restore(state)
            response = env.step(c)[0].strip()
            if len(responses) < int(req.get("responses", 0)):
                responses[c] = response
            after = self._tree()
            changed = sorted(n for n in after if after[n] != before.get(n))
            ended = bool(env.game_over() or env.victory() or ended_reply(response))
            if changed or ended:
                unseen[c] = {"objects": changed[:10], "ended": ended}
        self._restore(state)
        return {"keys": out, "probeKey": probe_key, "responses": responses, "unseen": unseen}

    def _inform(self):
        """Inform writes its compiler version ("6.21") at 0x3C; an Infocom story's attribute 25 is a real one."""
        m = bytes(self.env.get_state()[0][0x3C:0x40])
        return m[1:2] == b"." and m[0:1].isdigit()

    def _tree(self, workflag=False):
        """Every object's parent and attribute bytes, read from Jericho's RAM: get_world_objects()
        stops at 255 objects (Adventure has 276), and an object above that leaving play must show."""
        m = bytes(self.env.get_state()[0])
        v3 = m[0] <= 3
        size, attr_bytes, first = (9, 4, 62) if v3 else (14, 6, 126)
        at = ((m[0x0A] << 8) | m[0x0B]) + first
        lowest_props = len(m)
        tree = {}
        num = 1
        while at + size <= lowest_props and num < (256 if v3 else 65536):
            props = (m[at + size - 2] << 8) | m[at + size - 1]
            if props < at + size or props >= len(m):
                break
            lowest_props = min(lowest_props, props)
            parent = m[at + attr_bytes] if v3 else (m[at + attr_bytes] << 8) | m[at + attr_bytes + 1]
            attrs = bytearray(m[at:at + attr_bytes])
            if not workflag:
                attrs[WORKFLAG_BYTE] &= ~WORKFLAG_BIT & 0xFF
            tree[num] = (parent, bytes(attrs))
            at += size
            num += 1
        return tree

    def facts(self, req):
        env = self.env
        return {"player": int(env.player_obj_num), "worldObjects": int(env.frotz_lib.get_num_world_objs())}

    def ram(self, req):
        env = self.env
        ram = env.get_state()[0]
        return {"ram": base64.b64encode(ram.tobytes()).decode("ascii"), "score": int(env.get_score()), "moves": int(env.get_moves())}

    def step(self, req):
        env = self.env
        observation, _, done, info = env.step(req["command"])
        return {"observation": observation, "done": bool(done), "score": int(info["score"])}

    # --- loop ---------------------------------------------------------------------

    def run(self):
        _reply({"ok": True, "ready": True, "version": JERICHO_VERSION, "nounTagger": NOUN_TAGGER})
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                req = json.loads(line)
                op = req.get("op")
                if op == "quit":
                    _reply({"ok": True})
                    break
                handler = {
                    "load": self.load,
                    "observe": self.observe,
                    "valid": self.valid,
                    "test": self.test,
                    "step": self.step,
                    "facts": self.facts,
                    "ram": self.ram,
                }.get(op)
                if handler is None:
                    raise ValueError(f"unknown op {op!r}")
                if op != "load" and self.env is None:
                    raise RuntimeError("no story loaded")
                reply = handler(req)
                reply["ok"] = True
                reply["spacyLoaded"] = "spacy_nlp" in vars(jericho.util)
                _reply(reply)
            except Exception as e:  # reported to the caller, which decides
                _reply({"ok": False, "error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()})
        if self.env is not None and hasattr(self.env, "pool"):
            self.env.pool.terminate()


def _reply(obj):
    _reply_stream.write(json.dumps(obj) + "\n")
    _reply_stream.flush()


if __name__ == "__main__":
    Driver().run()
