// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target,mtia-carry-in-pushed-pages)' | FileCheck %s
// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-attach-target{target=mtia-2i},mtia-carry-in-pushed-pages{reserved-buffers=31})' | FileCheck %s --check-prefix=BUDGET

// The loop carries scaled scores for the SIMD engine, which pushes each
// iteration's next scores to the reduction engine for their row maximum:
// the first before the loop, in the branch of the `scf.if` that computes
// them. The SIMD engine reads this iteration's scores in the page it pushed
// instead; the other branch, which yields zeros without pushing them,
// pushes them and the reduction engine drops the page. The pages get one
// buffer, and the loop's result is read in its last page after the loop.

// CHECK-LABEL: tt.func @carried_scores
// CHECK: %[[FIRST:.*]] = cb.alloc "first"
// CHECK-NOT: cb.alloc "next"
// CHECK: scf.if
// CHECK: cb.write_back %{{.*}}, %[[FIRST]][0]
// CHECK: } else {
// CHECK-NEXT: cb.reserve_back %[[FIRST]], 1
// CHECK-NEXT: cb.write_back %[[ZEROS:.*]], %[[FIRST]][0]
// CHECK-NEXT: cb.push_back %[[FIRST]], 1
// CHECK-NEXT: cb.wait_front %[[FIRST]], 1
// CHECK-NEXT: cb.pop_front %[[FIRST]], 1
// CHECK-NEXT: scf.yield
// CHECK: %[[SUM:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %arg0) -> (!tile.tile<8x8xf32>)
// CHECK-NEXT: %[[THIS:.*]] = cb.read_pushed %[[FIRST]][0]
// CHECK-NEXT: %[[SHIFTED:.*]] = tile.binary subf %[[THIS]], %[[ACC]]
// CHECK: cb.write_back %{{.*}}, %[[FIRST]][0]
// CHECK: scf.yield %[[SHIFTED]] : !tile.tile<8x8xf32>
// CHECK: %[[LAST:.*]] = cb.read_pushed %[[FIRST]][0]
// CHECK-NEXT: tile.binary addf %[[SUM]], %[[LAST]]
tt.func @carried_scores(%acc0: !tile.tile<8x8xf32>, %p0: !tile.tile<8x8xf32>, %p: !tile.tile<8x8xf32>, %runs: i1, %n: index) -> !tile.tile<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zeros = tile.constant dense<0.0> : tensor<8x8xf32> : !tile.tile<8x8xf32>
  %first = cb.alloc "first", simd -> reduce : !cb.cb<8x8xf32, pages = 1>
  %next = cb.alloc "next", simd -> reduce : !cb.cb<8x8xf32, pages = 1>
  %init = scf.if %runs -> (!tile.tile<8x8xf32>) {
    %s = tile.binary mulf %p0, %p0 : !tile.tile<8x8xf32>
    cb.reserve_back %first, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.write_back %s, %first[0] : !cb.cb<8x8xf32, pages = 1>
    cb.push_back %first, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.wait_front %first, 1 : !cb.cb<8x8xf32, pages = 1>
    %r = cb.read_front %first[0] : !cb.cb<8x8xf32, pages = 1>
    %m = tile.reduce maxnumf %r axis = 1 : !tile.tile<8x8xf32> -> !tile.tile<8xf32>
    cb.pop_front %first, 1 : !cb.cb<8x8xf32, pages = 1>
    scf.yield %s : !tile.tile<8x8xf32>
  } else {
    scf.yield %zeros : !tile.tile<8x8xf32>
  }
  %0:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %scores = %init) -> (!tile.tile<8x8xf32>, !tile.tile<8x8xf32>) {
    %shifted = tile.binary subf %scores, %acc : !tile.tile<8x8xf32>
    %s = tile.binary mulf %p, %shifted : !tile.tile<8x8xf32>
    cb.reserve_back %next, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.write_back %s, %next[0] : !cb.cb<8x8xf32, pages = 1>
    cb.push_back %next, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.wait_front %next, 1 : !cb.cb<8x8xf32, pages = 1>
    %r = cb.read_front %next[0] : !cb.cb<8x8xf32, pages = 1>
    %m = tile.reduce maxnumf %r axis = 1 : !tile.tile<8x8xf32> -> !tile.tile<8xf32>
    cb.pop_front %next, 1 : !cb.cb<8x8xf32, pages = 1>
    scf.yield %shifted, %s : !tile.tile<8x8xf32>, !tile.tile<8x8xf32>
  }
  %sum = tile.binary addf %0#0, %0#1 : !tile.tile<8x8xf32>
  tt.return %sum : !tile.tile<8x8xf32>
}

// -----

// A loop starts from the result of the first (the iteration a pipelined
// loop peels off) and carries the scores on; a third uses the second's
// result in its body, where nothing pushes to the chain's buffer. The three
// share the first loop's buffer, and neither loop carries the scores.

// CHECK-LABEL: tt.func @chained_loops
// CHECK: %[[FIRST:.*]] = cb.alloc "first"
// CHECK-NOT: cb.alloc "second"
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %arg0) -> (!tile.tile<8x8xf32>)
// CHECK-NEXT: cb.read_pushed %[[FIRST]][0]
// CHECK: %[[ONE:.*]] = cb.read_pushed %[[FIRST]][0]
// CHECK-NEXT: %[[SECOND:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!tile.tile<8x8xf32>)
// CHECK-NEXT: cb.read_pushed %[[FIRST]][0]
// CHECK: cb.write_back %{{.*}}, %[[FIRST]][0]
// CHECK: %[[TWO:.*]] = cb.read_pushed %[[FIRST]][0]
// CHECK-NEXT: scf.for
// CHECK-NEXT: tile.binary subf %[[TWO]]
tt.func @chained_loops(%acc0: !tile.tile<8x8xf32>, %s0: !tile.tile<8x8xf32>, %p: !tile.tile<8x8xf32>, %n: index) -> !tile.tile<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = cb.alloc "first", simd -> reduce : !cb.cb<8x8xf32, pages = 1>
  %second = cb.alloc "second", simd -> reduce : !cb.cb<8x8xf32, pages = 1>
  %init = tile.binary mulf %s0, %s0 : !tile.tile<8x8xf32>
  %0:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %scores = %init) -> (!tile.tile<8x8xf32>, !tile.tile<8x8xf32>) {
    %shifted = tile.binary subf %scores, %acc : !tile.tile<8x8xf32>
    %s = tile.binary mulf %p, %shifted : !tile.tile<8x8xf32>
    cb.reserve_back %first, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.write_back %s, %first[0] : !cb.cb<8x8xf32, pages = 1>
    cb.push_back %first, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.wait_front %first, 1 : !cb.cb<8x8xf32, pages = 1>
    %r = cb.read_front %first[0] : !cb.cb<8x8xf32, pages = 1>
    %m = tile.reduce maxnumf %r axis = 1 : !tile.tile<8x8xf32> -> !tile.tile<8xf32>
    cb.pop_front %first, 1 : !cb.cb<8x8xf32, pages = 1>
    scf.yield %shifted, %s : !tile.tile<8x8xf32>, !tile.tile<8x8xf32>
  }
  %1:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %0#0, %scores = %0#1) -> (!tile.tile<8x8xf32>, !tile.tile<8x8xf32>) {
    %shifted = tile.binary subf %scores, %acc : !tile.tile<8x8xf32>
    %s = tile.binary mulf %p, %shifted : !tile.tile<8x8xf32>
    cb.reserve_back %second, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.write_back %s, %second[0] : !cb.cb<8x8xf32, pages = 1>
    cb.push_back %second, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.wait_front %second, 1 : !cb.cb<8x8xf32, pages = 1>
    %r = cb.read_front %second[0] : !cb.cb<8x8xf32, pages = 1>
    %m = tile.reduce maxnumf %r axis = 1 : !tile.tile<8x8xf32> -> !tile.tile<8xf32>
    cb.pop_front %second, 1 : !cb.cb<8x8xf32, pages = 1>
    scf.yield %shifted, %s : !tile.tile<8x8xf32>, !tile.tile<8x8xf32>
  }
  %2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %1#0) -> (!tile.tile<8x8xf32>) {
    %shifted = tile.binary subf %1#1, %acc : !tile.tile<8x8xf32>
    scf.yield %shifted : !tile.tile<8x8xf32>
  }
  tt.return %2 : !tile.tile<8x8xf32>
}

// -----

// The body uses this iteration's scores after it pushes the next: the page
// holds the next ones by then. The loop is left alone.

// CHECK-LABEL: tt.func @used_after_the_next_push
// CHECK: cb.alloc "next"
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %arg0, %{{.*}} = %{{.*}})
// CHECK-NOT: cb.read_pushed
tt.func @used_after_the_next_push(%acc0: !tile.tile<8x8xf32>, %s0: !tile.tile<8x8xf32>, %p: !tile.tile<8x8xf32>, %n: index) -> !tile.tile<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %next = cb.alloc "next", simd -> reduce : !cb.cb<8x8xf32, pages = 1>
  %init = tile.binary mulf %s0, %s0 : !tile.tile<8x8xf32>
  %0:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %scores = %init) -> (!tile.tile<8x8xf32>, !tile.tile<8x8xf32>) {
    %s = tile.binary mulf %p, %acc : !tile.tile<8x8xf32>
    cb.reserve_back %next, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.write_back %s, %next[0] : !cb.cb<8x8xf32, pages = 1>
    cb.push_back %next, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.wait_front %next, 1 : !cb.cb<8x8xf32, pages = 1>
    %r = cb.read_front %next[0] : !cb.cb<8x8xf32, pages = 1>
    %m = tile.reduce maxnumf %r axis = 1 : !tile.tile<8x8xf32> -> !tile.tile<8xf32>
    cb.pop_front %next, 1 : !cb.cb<8x8xf32, pages = 1>
    %shifted = tile.binary subf %scores, %acc : !tile.tile<8x8xf32>
    scf.yield %shifted, %s : !tile.tile<8x8xf32>, !tile.tile<8x8xf32>
  }
  tt.return %0#0 : !tile.tile<8x8xf32>
}

// -----

// The reduction engine also uses this iteration's scores: it needs a page
// of its own. The loop is left alone.

// CHECK-LABEL: tt.func @used_on_another_unit
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %arg0, %{{.*}} = %{{.*}})
// CHECK-NOT: cb.read_pushed
tt.func @used_on_another_unit(%acc0: !tile.tile<8xf32>, %s0: !tile.tile<8x8xf32>, %p: !tile.tile<8x8xf32>, %n: index) -> !tile.tile<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %next = cb.alloc "next", simd -> reduce : !cb.cb<8x8xf32, pages = 1>
  %init = tile.binary mulf %s0, %s0 : !tile.tile<8x8xf32>
  %0:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %scores = %init) -> (!tile.tile<8xf32>, !tile.tile<8x8xf32>) {
    %sum = tile.reduce addf %scores axis = 1 : !tile.tile<8x8xf32> -> !tile.tile<8xf32>
    %s = tile.binary mulf %p, %p : !tile.tile<8x8xf32>
    cb.reserve_back %next, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.write_back %s, %next[0] : !cb.cb<8x8xf32, pages = 1>
    cb.push_back %next, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.wait_front %next, 1 : !cb.cb<8x8xf32, pages = 1>
    %r = cb.read_front %next[0] : !cb.cb<8x8xf32, pages = 1>
    %m = tile.reduce maxnumf %r axis = 1 : !tile.tile<8x8xf32> -> !tile.tile<8xf32>
    cb.pop_front %next, 1 : !cb.cb<8x8xf32, pages = 1>
    scf.yield %sum, %s : !tile.tile<8xf32>, !tile.tile<8x8xf32>
  }
  tt.return %0#0 : !tile.tile<8xf32>
}

// -----

// The first loop's result is used after the loop that starts from it,
// which would push to the chain's buffer again: the first loop is left
// alone, and so is the second, whose initial scores no page holds.

// CHECK-LABEL: tt.func @used_after_the_chained_loop
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %arg0, %{{.*}} = %{{.*}})
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}#0, %{{.*}} = %{{.*}}#1)
// CHECK-NOT: cb.read_pushed
tt.func @used_after_the_chained_loop(%acc0: !tile.tile<8x8xf32>, %s0: !tile.tile<8x8xf32>, %p: !tile.tile<8x8xf32>, %n: index) -> !tile.tile<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = cb.alloc "first", simd -> reduce : !cb.cb<8x8xf32, pages = 1>
  %second = cb.alloc "second", simd -> reduce : !cb.cb<8x8xf32, pages = 1>
  %init = tile.binary mulf %s0, %s0 : !tile.tile<8x8xf32>
  %0:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %scores = %init) -> (!tile.tile<8x8xf32>, !tile.tile<8x8xf32>) {
    %shifted = tile.binary subf %scores, %acc : !tile.tile<8x8xf32>
    %s = tile.binary mulf %p, %shifted : !tile.tile<8x8xf32>
    cb.reserve_back %first, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.write_back %s, %first[0] : !cb.cb<8x8xf32, pages = 1>
    cb.push_back %first, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.wait_front %first, 1 : !cb.cb<8x8xf32, pages = 1>
    %r = cb.read_front %first[0] : !cb.cb<8x8xf32, pages = 1>
    %m = tile.reduce maxnumf %r axis = 1 : !tile.tile<8x8xf32> -> !tile.tile<8xf32>
    cb.pop_front %first, 1 : !cb.cb<8x8xf32, pages = 1>
    scf.yield %shifted, %s : !tile.tile<8x8xf32>, !tile.tile<8x8xf32>
  }
  %1:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %0#0, %scores = %0#1) -> (!tile.tile<8x8xf32>, !tile.tile<8x8xf32>) {
    %shifted = tile.binary subf %scores, %acc : !tile.tile<8x8xf32>
    %s = tile.binary mulf %p, %shifted : !tile.tile<8x8xf32>
    cb.reserve_back %second, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.write_back %s, %second[0] : !cb.cb<8x8xf32, pages = 1>
    cb.push_back %second, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.wait_front %second, 1 : !cb.cb<8x8xf32, pages = 1>
    %r = cb.read_front %second[0] : !cb.cb<8x8xf32, pages = 1>
    %m = tile.reduce maxnumf %r axis = 1 : !tile.tile<8x8xf32> -> !tile.tile<8xf32>
    cb.pop_front %second, 1 : !cb.cb<8x8xf32, pages = 1>
    scf.yield %shifted, %s : !tile.tile<8x8xf32>, !tile.tile<8x8xf32>
  }
  %sum = tile.binary addf %1#0, %0#1 : !tile.tile<8x8xf32>
  tt.return %sum : !tile.tile<8x8xf32>
}

// -----

// The body also passes its probabilities on to the reduction engine, after
// the next scores, through one buffer with them once buffers share. The
// scores' chain would keep a buffer of its own, a second: with all but one
// of the command processor's buffers reserved for later stages (BUDGET),
// that does not fit, and the loop is left alone.

// CHECK-LABEL: tt.func @within_the_buffer_budget
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %arg0) -> (!tile.tile<8x8xf32>)
// CHECK-NEXT: cb.read_pushed
// BUDGET-LABEL: tt.func @within_the_buffer_budget
// BUDGET: scf.for {{.*}} iter_args(%{{.*}} = %arg0, %{{.*}} = %{{.*}})
// BUDGET-NOT: cb.read_pushed
tt.func @within_the_buffer_budget(%acc0: !tile.tile<8x8xf32>, %s0: !tile.tile<8x8xf32>, %p: !tile.tile<8x8xf32>, %n: index) -> !tile.tile<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %next = cb.alloc "next", simd -> reduce : !cb.cb<8x8xf32, pages = 1>
  %probs = cb.alloc "probs", simd -> reduce : !cb.cb<8x8xf32, pages = 1>
  %init = tile.binary mulf %s0, %s0 : !tile.tile<8x8xf32>
  %0:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %scores = %init) -> (!tile.tile<8x8xf32>, !tile.tile<8x8xf32>) {
    %shifted = tile.binary subf %scores, %acc : !tile.tile<8x8xf32>
    %s = tile.binary mulf %p, %shifted : !tile.tile<8x8xf32>
    cb.reserve_back %next, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.write_back %s, %next[0] : !cb.cb<8x8xf32, pages = 1>
    cb.push_back %next, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.wait_front %next, 1 : !cb.cb<8x8xf32, pages = 1>
    %r = cb.read_front %next[0] : !cb.cb<8x8xf32, pages = 1>
    %m = tile.reduce maxnumf %r axis = 1 : !tile.tile<8x8xf32> -> !tile.tile<8xf32>
    cb.pop_front %next, 1 : !cb.cb<8x8xf32, pages = 1>
    %e = tile.sfu exp2 %shifted : !tile.tile<8x8xf32>
    cb.reserve_back %probs, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.write_back %e, %probs[0] : !cb.cb<8x8xf32, pages = 1>
    cb.push_back %probs, 1 : !cb.cb<8x8xf32, pages = 1>
    cb.wait_front %probs, 1 : !cb.cb<8x8xf32, pages = 1>
    %q = cb.read_front %probs[0] : !cb.cb<8x8xf32, pages = 1>
    %sum = tile.reduce addf %q axis = 1 : !tile.tile<8x8xf32> -> !tile.tile<8xf32>
    cb.pop_front %probs, 1 : !cb.cb<8x8xf32, pages = 1>
    scf.yield %shifted, %s : !tile.tile<8x8xf32>, !tile.tile<8x8xf32>
  }
  tt.return %0#0 : !tile.tile<8x8xf32>
}
