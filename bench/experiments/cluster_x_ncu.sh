#!/usr/bin/env bash
# On the GPU machine, from the repository root with .device-build carried: the local-hot sweep
# of cluster_x_prototype (fp32), then ncu on four of its configurations (L1 and L2 throughput
# breakdowns, request counts, warp states). Writes local_f32.txt and ncu.tgz under $OUT.
set -euo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PATH=$PATH:/usr/local/cuda/bin
b=.device-build/bin/cluster_x_prototype
$b --mode 3 > "$OUT/local_f32.txt" 2>&1
m=gpu__time_duration.sum,breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed
m=$m,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed
m=$m,dram__throughput.avg.pct_of_peak_sustained_elapsed
m=$m,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
m=$m,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum
m=$m,lts__t_requests.sum,lts__t_sectors.sum,sm__warps_active.avg.pct_of_peak_sustained_active
m=$m,smsp__inst_executed.sum
i=0
for cfg in "--mode 0 --items 4 --block 1024" "--mode 1 --items 4 --block 1024 --kib 64" \
           "--mode 3 --items 4 --block 1024 --kib 96" \
           "--mode 2 --items 2 --block 512 --cluster 2 --kib 48"; do
  i=$((i + 1))
  # shellcheck disable=SC2086  # cfg is a list of options
  ncu --kernel-name regex:spmv_warp_tiles --launch-skip 2 --launch-count 1 --csv --metrics "$m" \
    --section WarpStateStats $b $cfg --reps 1 > "$OUT/ncu_$i.csv" 2>&1
done
cd "$OUT" && tar czf ncu.tgz ncu_*.csv && rm ncu_*.csv
