package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.*;
import java.util.*;
import org.junit.jupiter.api.Test;

class ScratchAccuracyTest {
  @Test
  void accuracy() throws Exception {
    Random rnd = new Random(5);
    SudokuPuzzle p = SudokuGenerator.generate(9, SudokuBand.MEDIUM, rnd);
    try (DigitOcr ocr = DigitOcr.open()) {
      for (int canvas : new int[]{288, 512, 900}) for (double blur : new double[]{0, 1.0}) for (int q : new int[]{0, 60}) {
        int ok = 0, tot = 0; long t = 0; StringBuilder bad = new StringBuilder();
        for (FixtureFonts.Face f : FixtureFonts.all()) {
          SudokuStyle st = SudokuStyle.standard(canvas).withClues(f.font(), 0x000000).withFill(f.font(), 0xC02020);
          RgbImage img = Degrade.blur(SudokuRenderer.solution(p, st), blur * canvas / 512);
          if (q > 0) img = ImageDecoder.decode(Degrade.jpeg(img, q), ImageDecoder.Limits.DEFAULT);
          long t0 = System.nanoTime();
          int[] read;
          try { read = new SudokuGridReader(9, ocr).read(img); } catch (GridException e) { bad.append(f + ":" + e.getMessage() + " "); tot += 81; continue; }
          t += System.nanoTime() - t0;
          String got = SudokuGridReader.format(read), exp = p.solutionString();
          for (int i = 0; i < 81; i++) { tot++; if (got.charAt(i) == exp.charAt(i)) ok++; else bad.append(f + ":" + exp.charAt(i) + "->" + got.charAt(i) + " "); }
        }
        System.out.printf("canvas %d blur %.1f jpeg %d: %d/%d  %.0f ms/grid  %s%n", canvas, blur, q, ok, tot, t / 1e6 / FixtureFonts.all().size(), bad.length() > 1500 ? bad.substring(0, 1500) : bad);
      }
    }
  }
}
