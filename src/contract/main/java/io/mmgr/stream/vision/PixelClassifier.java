package io.mmgr.stream.vision;

/** Assigns an 8-bit RGB colour to a small class label (0..127), e.g. wall / path / marker. */
@FunctionalInterface
public interface PixelClassifier {
    int classify(int r, int g, int b);
}
