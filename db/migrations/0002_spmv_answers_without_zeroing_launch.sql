-- SpMV answers stored before ktune put the zeroing of accumulated rows into the plan (121b720):
-- merge, and adaptive or adaptive_hot on a matrix with rows cut into slices, add into y with
-- atomicAdd, and their launch lists then lacked the spmv_zero_rows launch that now clears those
-- rows (their measured times left the zeroing out too). A client following such an answer adds
-- into whatever y holds. They are removed: the next tune of the workload answers again, with
-- the launch. Other answers, and every job, candidate and measurement, stay.
DELETE FROM results
WHERE kernel = 'spmv'
  AND json_extract(config, '$.schedule') IN ('merge', 'adaptive', 'adaptive_hot')
  AND instr(answer, 'spmv_zero_rows') = 0;
