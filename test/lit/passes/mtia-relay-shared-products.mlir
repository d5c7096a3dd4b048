// RUN: mtia-opt %s --split-input-file --pass-pipeline='builtin.module(mtia-relay-shared-products)' | FileCheck %s

// The reduction engine takes the row maximum of the scores and the SIMD
// engine scales them: the reduction engine copies them for the SIMD engine
// right after its maximum, which moves up to the product, and the DPE
// writes its product once.

// CHECK-LABEL: tt.func @scores_read_by_two_units
// CHECK: %[[QK:.*]] = tile.matmul
// CHECK-NEXT: %[[MAX:.*]] = tile.reduce maxnumf %[[QK]] axis = 1
// CHECK-NEXT: %[[COPY:.*]] = tile.reduce_copy %[[QK]] : !tile.tile<64x64xf32>
// CHECK-NEXT: %[[SCALE:.*]] = tile.splat
// CHECK-NEXT: %[[SCALED:.*]] = tile.binary mulf %[[COPY]], %[[SCALE]]
// CHECK-NEXT: tt.return %[[SCALED]], %[[MAX]]
tt.func @scores_read_by_two_units(%q: !tile.tile<64x64xf16>, %k: !tile.tile<64x64xf16>, %s: f32) -> (!tile.tile<64x64xf32>, !tile.tile<64xf32>) {
  %zero = tile.zeros : !tile.tile<64x64xf32>
  %qk = tile.matmul %q, %k, %zero : !tile.tile<64x64xf16>, !tile.tile<64x64xf16> -> !tile.tile<64x64xf32>
  %scale = tile.splat %s : !tile.tile<64x64xf32>
  %scaled = tile.binary mulf %qk, %scale : !tile.tile<64x64xf32>
  %max = tile.reduce maxnumf %qk axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
  tt.return %scaled, %max : !tile.tile<64x64xf32>, !tile.tile<64xf32>
}

// -----

// Products that only the reduction engine reads besides the DPE stay as they
// are: the DPE reads its accumulator itself.

// CHECK-LABEL: tt.func @accumulator_and_row_sum
// CHECK-NOT: tile.reduce_copy
tt.func @accumulator_and_row_sum(%a: !tile.tile<64x64xf16>, %b: !tile.tile<64x64xf16>) -> (!tile.tile<64x64xf32>, !tile.tile<64xf32>) {
  %zero = tile.zeros : !tile.tile<64x64xf32>
  %first = tile.matmul %a, %b, %zero : !tile.tile<64x64xf16>, !tile.tile<64x64xf16> -> !tile.tile<64x64xf32>
  %sum = tile.reduce addf %first axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
  %second = tile.matmul %a, %b, %first : !tile.tile<64x64xf16>, !tile.tile<64x64xf16> -> !tile.tile<64x64xf32>
  tt.return %second, %sum : !tile.tile<64x64xf32>, !tile.tile<64xf32>
}

// -----

// A pipelined loop computes the next scores in the body and carries them to
// the next iteration, whose SIMD engine exponentiates them: the reduction
// engine's copy is what the loop carries, for the first scores before the
// loop as for the next ones in the body. The row maximum of the next scores
// moves up to their product, ahead of the row sum of this iteration's
// exponentials in the reduction engine's program order.

// CHECK-LABEL: tt.func @scores_carried_to_the_next_iteration
// CHECK: %[[FIRST:.*]] = tile.matmul
// CHECK-NEXT: %[[FIRST_MAX:.*]] = tile.reduce maxnumf %[[FIRST]]
// CHECK-NEXT: %[[FIRST_COPY:.*]] = tile.reduce_copy %[[FIRST]]
// CHECK: scf.for {{.*}} iter_args(%[[CURRENT:.*]] = %[[FIRST_COPY]], %{{.*}} = %[[FIRST_MAX]], %{{.*}} = %{{.*}})
// CHECK-NEXT: %[[P:.*]] = tile.sfu exp2 %[[CURRENT]]
// CHECK-NEXT: %[[NEXT:.*]] = tile.matmul
// CHECK-NEXT: %[[NEXT_MAX:.*]] = tile.reduce maxnumf %[[NEXT]]
// CHECK-NEXT: %[[NEXT_COPY:.*]] = tile.reduce_copy %[[NEXT]]
// CHECK-NEXT: %[[SUM:.*]] = tile.reduce addf %[[P]]
// CHECK: scf.yield %[[NEXT_COPY]], %[[NEXT_MAX]]
tt.func @scores_carried_to_the_next_iteration(%q: !tile.tile<64x64xf16>, %k: !tile.tile<64x64xf16>, %n: index) -> (!tile.tile<64xf32>, !tile.tile<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = tile.zeros : !tile.tile<64x64xf32>
  %sums = tile.constant dense<0.000000e+00> : tensor<64xf32> : !tile.tile<64xf32>
  %first = tile.matmul %q, %k, %zero : !tile.tile<64x64xf16>, !tile.tile<64x64xf16> -> !tile.tile<64x64xf32>
  %first_max = tile.reduce maxnumf %first axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%current = %first, %max = %first_max, %acc = %sums) -> (!tile.tile<64x64xf32>, !tile.tile<64xf32>, !tile.tile<64xf32>) {
    %p = tile.sfu exp2 %current : !tile.tile<64x64xf32>
    %next = tile.matmul %q, %k, %zero : !tile.tile<64x64xf16>, !tile.tile<64x64xf16> -> !tile.tile<64x64xf32>
    %sum = tile.reduce addf %p axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
    %total = tile.binary addf %acc, %sum : !tile.tile<64xf32>
    %next_max = tile.reduce maxnumf %next axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
    scf.yield %next, %next_max, %total : !tile.tile<64x64xf32>, !tile.tile<64xf32>, !tile.tile<64xf32>
  }
  tt.return %r#1, %r#2 : !tile.tile<64xf32>, !tile.tile<64xf32>
}

// -----

// Two iterations ahead, the loop carries the DPE's product of the next
// iteration: the reduction engine takes its maximum and copies it at the
// start of the body, and the copy is what moves on to the argument the SIMD
// engine reads.

// CHECK-LABEL: tt.func @scores_carried_two_iterations_ahead
// CHECK: scf.for {{.*}} iter_args(%[[CURRENT:.*]] = %{{.*}}, %[[AHEAD:.*]] = %{{.*}})
// CHECK-NEXT: %[[MAX:.*]] = tile.reduce maxnumf %[[AHEAD]]
// CHECK-NEXT: %[[COPY:.*]] = tile.reduce_copy %[[AHEAD]]
// CHECK-NEXT: tile.sfu exp2 %[[CURRENT]]
// CHECK: %[[NEXT:.*]] = tile.matmul
// CHECK: scf.yield %[[COPY]], %[[NEXT]]
tt.func @scores_carried_two_iterations_ahead(%q: !tile.tile<64x64xf16>, %k: !tile.tile<64x64xf16>, %first: !tile.tile<64x64xf32>, %n: index) -> !tile.tile<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = tile.zeros : !tile.tile<64x64xf32>
  %second = tile.matmul %q, %k, %zero : !tile.tile<64x64xf16>, !tile.tile<64x64xf16> -> !tile.tile<64x64xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%current = %first, %ahead = %second) -> (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) {
    %p = tile.sfu exp2 %current : !tile.tile<64x64xf32>
    %next = tile.matmul %q, %k, %zero : !tile.tile<64x64xf16>, !tile.tile<64x64xf16> -> !tile.tile<64x64xf32>
    %max = tile.reduce maxnumf %ahead axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
    %m = tile.broadcast %max {dimensions = array<i64: 0>} : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %shifted = tile.binary subf %p, %m : !tile.tile<64x64xf32>
    scf.yield %ahead, %next : !tile.tile<64x64xf32>, !tile.tile<64x64xf32>
  }
  %last = tile.reduce maxnumf %r#0 axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
  tt.return %last : !tile.tile<64xf32>
}

// -----

// A loop that passes on scores it did not compute (the last iteration of a
// pipelined loop, handing the scores computed ahead to the next loop), which
// the SIMD engine reads: the reduction engine copies them at the start of
// the body, where the loop writes the page that carries them, rather than
// once before the loop and then again into that page at the yield.

// CHECK-LABEL: tt.func @scores_passed_on_by_a_loop
// CHECK: %[[AHEAD:.*]] = tile.matmul
// CHECK-NEXT: scf.for {{.*}} iter_args(%[[CURRENT:.*]] = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK-NEXT: %[[COPY:.*]] = tile.reduce_copy %[[AHEAD]]
// CHECK-NEXT: tile.sfu exp2 %[[CURRENT]]
// CHECK: tile.reduce maxnumf %[[AHEAD]]
// CHECK: scf.yield %[[COPY]],
// CHECK-NOT: tile.reduce_copy
tt.func @scores_passed_on_by_a_loop(%q: !tile.tile<64x64xf16>, %k: !tile.tile<64x64xf16>, %first: !tile.tile<64x64xf32>, %low: !tile.tile<64xf32>, %n: index) -> (!tile.tile<64x64xf32>, !tile.tile<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = tile.zeros : !tile.tile<64x64xf32>
  %ahead = tile.matmul %q, %k, %zero : !tile.tile<64x64xf16>, !tile.tile<64x64xf16> -> !tile.tile<64x64xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%current = %first, %m = %low) -> (!tile.tile<64x64xf32>, !tile.tile<64xf32>) {
    %p = tile.sfu exp2 %current : !tile.tile<64x64xf32>
    %sum = tile.reduce addf %p axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
    %max = tile.reduce maxnumf %ahead axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
    %next = tile.binary addf %max, %sum : !tile.tile<64xf32>
    scf.yield %ahead, %next : !tile.tile<64x64xf32>, !tile.tile<64xf32>
  }
  %e = tile.sfu exp2 %r#0 : !tile.tile<64x64xf32>
  tt.return %e, %r#1 : !tile.tile<64x64xf32>, !tile.tile<64xf32>
}
