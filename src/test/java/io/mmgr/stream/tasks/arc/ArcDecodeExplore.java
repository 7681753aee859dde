package io.mmgr.stream.tasks.arc;

import java.util.Arrays;

/** Manual exploration: decodes every fixture under every style and prints the misses. */
public final class ArcDecodeExplore {
    public static void main(String[] args) throws Exception {
        int ok = 0;
        int n = 0;
        long t0 = System.nanoTime();
        for (OutputStyle style : OutputStyle.ALL) {
            int sok = 0;
            int sn = 0;
            for (Object[] tp : ArcFixtures.testPairs()) {
                ArcTask t = (ArcTask) tp[0];
                int i = (int) tp[1];
                ArcGrid truth = t.test(i).output();
                n++;
                sn++;
                String got;
                try {
                    ArcGridDecoder.Decoded d = ArcGridDecoder.decode(style.render(truth.toArray()), null,
                            args.length > 0 ? null : new int[] {truth.rows(), truth.cols()});
                    if (Arrays.deepEquals(d.cells(), truth.toArray())) {
                        ok++;
                        sok++;
                        continue;
                    }
                    got = d.rows() + "x" + d.cols() + " lines=" + d.gridLines() + " amb=" + d.ambiguous()
                            + " pitch=" + String.format("%.2f/%.2f", d.cellWidth(), d.cellHeight());
                    if (d.rows() == truth.rows() && d.cols() == truth.cols()) {
                        int bad = 0;
                        for (int r = 0; r < truth.rows(); r++) {
                            for (int c = 0; c < truth.cols(); c++) {
                                if (d.cells()[r][c] != truth.get(r, c)) {
                                    bad++;
                                    if (bad <= 3) {
                                        got += " (" + r + "," + c + ") " + d.cells()[r][c] + "!=" + truth.get(r, c);
                                    }
                                }
                            }
                        }
                        got += " bad=" + bad;
                    }
                } catch (ArcDecodeException e) {
                    got = "ERR " + e.getMessage();
                }
                System.out.println(style + " " + t.id() + "#" + i + " truth " + truth.rows() + "x" + truth.cols()
                        + " -> " + got);
            }
            System.out.println("== " + style + ": " + sok + "/" + sn);
        }
        System.out.printf("TOTAL %d/%d in %.1f s%n", ok, n, (System.nanoTime() - t0) / 1e9);
        int fok = 0;
        int fn = 0;
        for (OutputStyle style : OutputStyle.ALL) {
            for (Object[] tp : ArcFixtures.testPairs()) {
                ArcTask t = (ArcTask) tp[0];
                ArcGrid truth = t.test((int) tp[1]).output();
                for (ArcFault f : ArcFault.values()) {
                    var g = f.apply(truth.toArray());
                    if (g.isEmpty()) {
                        continue;
                    }
                    fn++;
                    try {
                        ArcGridDecoder.Decoded d = ArcGridDecoder.decode(style.render(g.get()), null,
                                new int[] {truth.rows(), truth.cols()});
                        if (Arrays.deepEquals(d.cells(), g.get())) {
                            fok++;
                        } else {
                            if (Arrays.deepEquals(d.cells(), truth.toArray())) {
                                System.out.println("MISSED " + f + " " + style + " " + t.id());
                            }
                            System.out.println("FAULT " + f + " " + style + " " + t.id() + " drawn " + g.get().length + "x"
                                    + g.get()[0].length + " read " + d.rows() + "x" + d.cols() + " lines=" + d.gridLines());
                        }
                    } catch (ArcDecodeException e) {
                        System.out.println("FAULT " + f + " " + style + " " + t.id() + " ERR " + e.getMessage());
                    }
                }
            }
        }
        System.out.printf("FAULTS %d/%d%n", fok, fn);
    }
}
