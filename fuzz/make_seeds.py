#!/usr/bin/env python3
"""Write the hand-made seed corpus under fuzz/corpus/ (run from the repo
root: python3 fuzz/make_seeds.py).  The layouts are described at the top of
each harness; this file only spells the seeds out so they can be read and
regenerated.  Re-running it rewrites these seeds and nothing else."""
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def put(harness, name, data):
    d = os.path.join(ROOT, harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(bytes(data))


def b(s):
    return list(s.encode("latin-1"))


# ---- fuzz_text: k, k x (char, spec), mode, oom, text ----
STOCK = 0x10  # '.' cost 1, '#' blocked
put("text", "stock_3x3", [STOCK, 0x00, 0x00] + b("..#\n.#.\n...\n"))
put("text", "legend_crlf",
    [STOCK | 2] + b("~") + [0x02] + b("T") + [0x80] + [0x0c, 0x00]
    + b("~~T\r\n.#~\r\n"))
put("text", "wider_grid", [STOCK, 0x02 | 0x04, 0x00] + b("....\n....\n"))
put("text", "taller_grid", [STOCK, 0x03, 0x00] + b("..\n..\n"))
put("text", "row_length", [STOCK, 0x00, 0x00] + b("...\n..\n...\n"))
put("text", "bad_char", [STOCK, 0x00, 0x00] + b("..x\n...\n"))
put("text", "oom_init", [STOCK, 0x00, 0x81] + b(".#\n#."))
put("text", "empty_first", [STOCK, 0x00, 0x00] + b("\n..\n"))
put("text", "costs",
    [4] + b("1") + [0x00] + b("2") + [0x01] + b("h") + [0x02] + b("x")
    + [0x86] + [0x1c, 0x00] + b("12hx\nxh21\n1111\n"))

# ---- fuzz_movingai: text, then a control byte ----
put("movingai", "small.map",
    b("type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n.TG.\n") + [0x05])
put("movingai", "crlf.map",
    b("type octile\r\nheight 2\r\nwidth 3\r\nmap\r\nS.W\r\n.O.\r\n") + [0x0c])
put("movingai", "tabs.map",
    b("type\toctile\nheight  2\nwidth 2 \nmap\n..\nSW") + [0x00])
put("movingai", "zero_height.map", b("type octile\nheight 0\nwidth 4\nmap\n")
    + [0x00])
put("movingai", "too_big.map", b("type octile\nheight 65535\nwidth 4\nmap\n")
    + [0x00])
put("movingai", "taller.map",
    b("type octile\nheight 2\nwidth 2\nmap\n..\n..\n") + [0x20])
put("movingai", "oom.map",
    b("type octile\nheight 2\nwidth 2\nmap\n.@\n@.\n") + [0xc0])
put("movingai", "short_body.map",
    b("type octile\nheight 3\nwidth 2\nmap\n..\n..\n") + [0x00])

# ---- fuzz_search: w-1, h-1, movement, init-oom, ops ----
SET_COST, BLOCK, FILL, MOVE, BADMOVE, QUERY, OOMQ, BADQ, REINIT, GEN, TWICE = range(11)


def q(sx, sy, gx, gy, heur=0, weight=0):
    return [sx, sy, gx, gy, heur + 6 * weight]


def all_heuristics(sx, sy, gx, gy):
    ops = []
    for hh in range(6):
        for w in (0, 3, 5):
            ops += [QUERY] + q(sx, sy, gx, gy, hh, w)
    return ops


wall = []
for y in range(1, 7):
    wall += [BLOCK, 3, y, 1]
put("search", "wall_8x8", [7, 7, 0x00, 0x00] + wall
    + [SET_COST, 5, 5, 8, FILL, 1, 1, 2, 2, 9]
    + all_heuristics(0, 0, 7, 7) + [TWICE] + q(7, 0, 0, 7))
put("search", "octile_2_3", [9, 5, 0x01 | (1 << 2), 0x00]
    + [FILL, 2, 0, 3, 5, 4, FILL, 6, 1, 2, 4, 11 | (2 << 5)]
    + all_heuristics(0, 0, 9, 5) + [MOVE, 0x02 | (2 << 2)]
    + all_heuristics(9, 0, 0, 5))
put("search", "fourway_oom", [5, 5, 0x03 | (5 << 2), 0x00]
    + [BLOCK, 2, 2, 1, BLOCK, 2, 3, 1, OOMQ, 0] + q(0, 0, 5, 5)
    + [OOMQ, 1] + q(5, 5, 0, 0) + [REINIT, 0, OOMQ, 2] + q(0, 5, 5, 0)
    + [BADQ, 4, BADMOVE, 3, QUERY] + q(0, 0, 0, 0))
put("search", "init_oom_gen", [3, 3, 0x00, 0x82]
    + [QUERY] + q(0, 0, 3, 3) + [GEN, 1] + [QUERY] + q(3, 3, 0, 0, 5)
    + [QUERY] + q(0, 3, 3, 0, 1) + [REINIT, 0x0a, MOVE, 0x01 | (4 << 2)]
    + all_heuristics(0, 0, 3, 2))
# a comb: cheap teeth between expensive ones, so the open list passes 256
# entries; the first search runs under a failing allocator at the heap's
# growth (allocation 4)
comb = []
for x in range(1, 32, 2):
    comb += [FILL, x, 1, 1, 31, 14]
put("search", "comb_heap_growth", [31, 31, 0x03, 0x00] + comb
    + [OOMQ, 3] + q(0, 0, 31, 31, 5) + [QUERY] + q(0, 0, 31, 31)
    + [TWICE] + q(31, 31, 0, 0, 0, 3))
put("search", "diagonal_rules", [6, 4, 0x01, 0x00]
    + [BLOCK, 1, 0, 1, BLOCK, 0, 1, 1, BLOCK, 3, 2, 1, BLOCK, 4, 3, 1]
    + [QUERY] + q(0, 0, 6, 4) + [MOVE, 0x00] + [QUERY] + q(0, 0, 6, 4)
    + [MOVE, 0x02] + [QUERY] + q(0, 0, 6, 4) + [MOVE, 0x03]
    + [QUERY] + q(0, 0, 6, 4) + [MOVE, 0x02 | (4 << 2)]
    + all_heuristics(6, 4, 0, 0))
put("search", "blocked_ends", [2, 2, 0x00, 0x00]
    + [BLOCK, 0, 0, 1, QUERY] + q(0, 0, 2, 2) + [QUERY] + q(2, 2, 0, 0)
    + [SET_COST, 0, 0, 9, QUERY] + q(0, 0, 2, 2)
    + [FILL, 1, 0, 1, 3, 0x10 | (2 << 5), QUERY] + q(0, 0, 2, 2))
# byte 3 bits 3-6: k - 1, the node budget of the sliced runs on the second
# context.  k = 5, and queries whose prepare runs under a failing allocator
# (OOMQ f bit 3; f bits 0-2 fail the prepare's and then the search's
# allocations)
put("search", "sliced_k5_prepare_oom", [9, 9, 0x00, (5 - 1) << 3]
    + [FILL, 4, 0, 1, 8, 0x10 | (2 << 5), OOMQ, 8 | 0] + q(0, 0, 9, 9)
    + [BLOCK, 4, 9, 1, OOMQ, 8 | 1] + q(0, 9, 9, 0)
    + [BLOCK, 4, 9, 0, OOMQ, 8 | 4 | 2] + q(9, 9, 0, 0, 0, 3)
    + [GEN, 0x0f, TWICE] + q(0, 0, 9, 9) + [QUERY] + q(9, 0, 0, 9, 5))
# k = 16 on the comb: long searches in a few slices
put("search", "sliced_k16_comb", [31, 31, 0x03, (16 - 1) << 3] + comb
    + [QUERY] + q(0, 0, 31, 31) + [TWICE] + q(31, 0, 0, 31, 1, 4))

# ---- fuzz_paths: w-1, h-1, flags (rule, weighted, failing allocation),
# the walls (one bit per tile), [costs], then ops (see fuzz_paths.c) ----
TOGGLE, SIGHT, THETA, CORNERS, OOMTHETA, SMOOTH = range(6)


def walls(w, h, rows):
    """rows: strings of '.' and '#', row-major, packed 8 tiles a byte."""
    bits = [1 if c == "#" else 0 for r in rows for c in r]
    out = []
    for k in range(0, w * h, 8):
        out.append(sum(v << j for j, v in enumerate(bits[k:k + 8])))
    return out


ROOM = ["........",
        "..##....",
        "..##..#.",
        "......#.",
        "#.....#.",
        "...#....",
        "........",
        ".#......"]
room = walls(8, 8, ROOM)
# every diagonal rule: sights through corners, Theta* and Lazy Theta*
for rule in range(4):
    put("paths", "room_rule%d" % rule, [7, 7, rule] + room
        + [SIGHT, 0, 0, 7, 7, 0, SIGHT, 1, 1, 4, 4, 0, SIGHT, 0, 3, 5, 0, 1]
        + [THETA, 0, 0, 7, 7, 0, 0, THETA, 7, 0, 0, 7, 1, 0]
        + [CORNERS, 0, 0, 7, 7, 1, 0, CORNERS, 0, 7, 7, 0, 2, 0]
        + [SMOOTH, 0, SMOOTH, 3, 0, 0, 1, 1, 7, 7])
# big units (size 2 and 3), a toggle between queries
put("paths", "room_sizes", [7, 7, 0x00] + room
    + [THETA, 0, 6, 6, 0, 1, 1, CORNERS, 0, 6, 6, 0, 0, 1]
    + [TOGGLE, 4, 4, SIGHT, 0, 0, 5, 5, 1, THETA, 0, 0, 5, 5, 0, 2]
    + [CORNERS, 4, 0, 0, 4, 2, 1])
# weighted tiles (two bits a tile: costs 1..4), an allocation failing
# (the third of the context's) under Lazy Theta*
put("paths", "weighted_oom", [7, 7, 0x04 | (3 << 3)] + room
    + [0x1b, 0xe4, 0x00, 0xff] * 4
    + [OOMTHETA, 0, 0, 7, 7, 1, 0, OOMTHETA, 7, 7, 0, 0, 0, 0]
    + [THETA, 0, 7, 7, 0, 1, 0, CORNERS, 0, 0, 7, 7, 3, 0]
    + [SMOOTH, 0, SMOOTH, 4, 0, 0, 0, 1, 1, 1, 2, 2])

# ---- fuzz_graph: nodes to add first, then ops (see fuzz_graph.c) ----
G_NODE, G_EDGE, G_DISABLE, G_QUERY, G_OOMEDIT, G_OOMQUERY, G_FIELD, \
    G_CHECK, G_OOMFIELD = range(9)


def gq(s, goals, m):
    """a query from s to up to three goals; m: algorithm % 5 (A*,
    Dijkstra, BFS, greedy, bidirectional), +8 zero heuristic, +16 weight
    1.5, +32 max_cost"""
    g = list(goals) + [0] * (3 - len(goals))
    return [s, len(goals) - 1] + g + [m]


chain = []
for a in range(5):
    chain += [G_EDGE, a, a + 1, 0, G_EDGE, a + 1, a, 2]
put("graph", "chain_every_algorithm", [6] + chain
    + sum(([G_QUERY] + gq(0, [5], m) for m in range(5)), [])
    + [G_DISABLE, 3, 1] + [G_QUERY] + gq(0, [5, 2], 0)
    + [G_FIELD, 0, 1, 5, 0, 0, 0x80 | 0x09, 0, G_FIELD, 1, 0, 2, 0, 0, 0, 3]
    + [G_CHECK, 0, G_DISABLE, 3, 0, G_CHECK, 1])
put("graph", "oom_edits", [2, G_OOMEDIT, 1, 3, 4, 5, G_OOMEDIT, 0, 0, 1, 3]
    + [G_OOMEDIT, 2 | (9 << 2), 0, 1, 1, G_NODE, 0, 0, 0, 0]
    + [G_EDGE, 2, 0, 5, G_OOMQUERY, 2] + gq(2, [1], 0)
    + [G_OOMFIELD, 1, 0, 0, 1, 0, 0, 0, 0, G_CHECK, 2])

# ---- fuzz_field: w-1, h-1, flags (rule, steps {2, 3}, failing
# allocation f), the walls (one bit per tile), then ops (see
# fuzz_field.c) ----
F_WALL, F_COST, F_FIELD, F_OOMFIELD, F_RELEASE, F_FLEE, F_SUM = range(7)


def ff(d, goals, v=0, m=0, s=0):
    """a field: d (bit 0 "from", bit 1 field 1), up to three goals, v
    (bit 7: start values VALUES[(v >> 2i) & 7]), m (max_cost MAXC[m & 7],
    bit 6 the binary heap), s (size s % 2 + 1)"""
    g = [c for xy in goals for c in xy] + [0, 0] * (3 - len(goals))
    return [d, len(goals) - 1] + g + [v, m, s]


# octile, uniform costs: the bucket ring (a bucket holds 1 and sqrt 2)
put("field", "octile_ring", [2, 4, 0x00, 0x00, 0x00]
    + [F_FIELD] + ff(0, [(0, 0)]) + [F_FIELD] + ff(3, [(2, 4)], 0, 5)
    + [F_FLEE, 0, 0, F_FLEE, 1 | 2 | 4, 5, F_SUM, 1 | 2, 0, 1])
# every operation on the room (rule 1), costs, start values, max_cost,
# the binary heap, size 2 units, flee and sums of both kinds
put("field", "room_every_op", [7, 7, 0x01] + room
    + [F_COST, 4, 4, 7, F_COST, 5, 0, 5, F_COST, 0, 5, 3]
    + [F_FIELD] + ff(0, [(0, 0), (7, 7), (7, 0)], 0x80 | 0x12, 0)
    + [F_FIELD] + ff(2 | 1, [(5, 6), (0, 7)], 0x80 | 0x24, 0x40 | 6)
    + [F_FLEE, 0, 0, F_FLEE, 1 | 8, 6, F_SUM, 1 | 2 | 4, 3, 1]
    + [F_SUM, 1, 2, 4, F_FIELD] + ff(0, [(4, 4)], 0, 0, 1)
    + [F_FLEE, 2 | 4, 1, F_WALL, 3, 3, F_FLEE, 0, 0, F_SUM, 1, 0, 0]
    + [F_FIELD] + ff(1, [(6, 6), (6, 6)], 0x80 | 0x0c, 4, 1)
    + [F_RELEASE, 2, F_SUM, 2, 0, 0])
# allocations failing: builds on fresh fields, flee, sums, a release
put("field", "oom_every_op", [5, 4, 0x02 | (3 << 3), 0x12, 0x80, 0x01, 0x00]
    + [F_OOMFIELD] + ff(0, [(0, 0)], 0, 0x40)
    + [F_OOMFIELD] + ff(2, [(5, 4), (0, 4)], 0x80 | 0x11, 7)
    + [F_FLEE, 16, 0, F_FLEE, 16 | 2 | 1, 1, F_SUM, 16 | 1 | 2, 5, 2]
    + [F_RELEASE, 0, F_OOMFIELD] + ff(1, [(3, 3)], 0, 0, 1)
    + [F_SUM, 16, 1, 1])
# 4-way with steps {2, 3}: breadth-first on uniform costs, then a heap
put("field", "fourway_levels", [9, 6, 0x03 | 0x04, 0x10, 0x02, 0x00, 0x40,
                                0x80, 0x01, 0x20, 0x00, 0x00]
    + [F_FIELD] + ff(0, [(0, 0), (9, 6)]) + [F_FIELD] + ff(3, [(4, 3)], 0, 3)
    + [F_COST, 2, 2, 7, F_FIELD] + ff(0, [(0, 0), (9, 6)], 0x80 | 0x08)
    + [F_FLEE, 4, 0, F_FIELD] + ff(2, [(9, 0)], 0, 0, 1) + [F_SUM, 1 | 2, 0, 3])
# the map's other layers (opcode bytes 224 + e, see fuzz_field.c): terrain
# x y c, height x y h, a unit class u _ m0 m1 m2 m3 r, a link x1 y1 x2 y2
# c f, the overlay lists na ne + pairs + triples; a build's d bits 2-3
# pick the unit, bit 4 the avoid list, bit 5 the extra costs
E_TERRAIN, E_HEIGHT, E_UNIT, E_LINK, E_LISTS = range(224, 229)
# unit classes with terrain, heights (climb, descend, limits): both
# directions, flee and a rescanned sum under unit 1
put("field", "units_heights", [7, 7, 0x01] + room
    + [E_TERRAIN, 2, 2, 1, E_TERRAIN, 3, 2, 2, E_TERRAIN, 4, 5, 3]
    + [E_HEIGHT, 1, 1, 1, E_HEIGHT, 2, 1, 2, E_HEIGHT, 5, 5, 6]
    + [E_HEIGHT, 6, 6, 4, E_HEIGHT, 3, 0, 7]
    + [E_UNIT, 1, 0, 0, 2, 3, 1, 0x01 | (3 << 2) | (2 << 4)]
    + [E_UNIT, 2, 0, 5, 1, 0, 7, 0x02 | (1 << 2) | (3 << 6)]
    + [F_FIELD] + ff(4, [(0, 0), (7, 7)]) + [F_FIELD] + ff(2 | 1 | 8, [(6, 1)])
    + [F_FLEE, 0, 0, F_SUM, 1 | 2, 0, 3, F_FIELD] + ff(4 | 1, [(6, 0)], 0, 0, 1)
    + [F_FLEE, 2 | 4, 6])
# links (one-way, both ways, cost 0, an unlink) with avoid and extra costs
put("field", "links_overlays", [9, 6, 0x00, 0x00, 0x10, 0x00, 0x00, 0x10,
                                0x00, 0x00, 0x10, 0x00]
    + [E_LINK, 0, 0, 9, 6, 1, 0, E_LINK, 2, 5, 8, 1, 2, 1]
    + [E_LINK, 5, 0, 5, 6, 1, 1, E_LINK, 1, 1, 1, 1, 0, 0]
    + [E_LISTS, 3, 2, 1, 0, 0, 1, 4, 4, 8, 6, 0, 2, 2, 1]
    + [F_FIELD] + ff(16 | 32, [(0, 0), (4, 4)]) + [F_FIELD] + ff(2 | 1 | 16 | 32, [(9, 6)])
    + [F_FLEE, 1, 0, F_SUM, 1 | 2 | 4, 0, 7, F_FIELD] + ff(16, [(8, 1)], 0, 0, 1)
    + [E_LINK, 5, 0, 5, 6, 0, 2, F_FIELD] + ff(1 | 32, [(9, 0)], 0, 0x40))
# a hex grid: units, heights, a link, sizes 1 and 2
put("field", "hex", [8, 6, 0x40 | 0x04, 0x00, 0x02, 0x00, 0x00, 0x40, 0x00,
                     0x00, 0x00]
    + [E_TERRAIN, 3, 3, 1, E_HEIGHT, 4, 4, 2, E_UNIT, 3, 0, 0, 1, 2, 4, 0x05]
    + [F_FIELD] + ff(0, [(0, 0)]) + [F_FIELD] + ff(2 | 1 | 12, [(8, 6)], 0, 0x40)
    + [F_FLEE, 0, 0, F_SUM, 1 | 2, 0, 3, F_FIELD] + ff(0, [(4, 3)], 0, 0, 1)
    + [E_LINK, 0, 6, 8, 0, 3, 0, F_FIELD] + ff(2 | 12, [(8, 0)]))
