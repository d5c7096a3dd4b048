// RUN: mtia-opt --show-dialects | FileCheck %s

// The dialects of the PE are registered next to tt.
// CHECK: Available Dialects:
// CHECK-SAME: cb,
// CHECK-SAME: dma,
// CHECK-SAME: tile,
// CHECK-SAME: tt
