# Stack bytes per nesting level of a P5 decode, frame by frame (gdb's Python API).
#
#   gdb -q -batch -x Benchmarks/stack-per-level.py Benchmarks/.build/release/Bench
#
# Stops in `Node.init(from:)` a dozen levels down a P5-depth-50 v3 decode, walks the stack up to
# the same initializer one level higher, and prints each frame's size (the difference of stack
# pointers) and the total. A deep value keeps one such chain per level on the stack: its bytes
# are the memory a depth-10,000 decode walks on top of the floor's.
import gdb

gdb.execute("set pagination off")
gdb.execute("break $s12BenchSupport4NodeV4fromACs7Decoder_p_tKcfCTf4nd_n")
gdb.execute("run --allocs P5-depth-50 v3.decode 1 > /dev/null")
for _ in range(12):
    gdb.execute("continue", to_string=True)
frames = []
frame = gdb.newest_frame()
while frame is not None and len(frames) < 60:
    frames.append((int(frame.read_register("rsp")), frame.name() or "?"))
    frame = frame.older()
# From the frame above the innermost initializer (stopped at its entry, its frame not yet made)
# up to and including the same initializer one level up: one level's frames.
total = 0
for (sp, name), (older_sp, _) in zip(frames[1:], frames[2:]):
    total += older_sp - sp
    print(f"{older_sp - sp:>6}  {name[:140]}")
    if name == frames[0][1]:
        break
print(f"{total:>6}  bytes per level")
gdb.execute("kill")
