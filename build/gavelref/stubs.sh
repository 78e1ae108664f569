#!/bin/sh
# Writes empty stand-ins for the Python modules Gavel's simulator imports
# but its FIFO and isolated policies never call, into the directory $1
# (put it on PYTHONPATH).
set -e
d=${1:?usage: stubs.sh DIR}
mkdir -p "$d/runtime/rpc"
for m in cvxpy psutil matrix_completion runtime/__init__ runtime/rpc/__init__ \
         runtime/rpc/scheduler_server runtime/rpc/scheduler_client; do
  echo "# stand-in: never called by the FIFO and isolated policies" > "$d/$m.py"
done
