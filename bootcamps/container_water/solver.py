"""Container with most water: the largest (j - i) * min(h_i, h_j) over pairs of bars, by two pointers in O(n)."""
from __future__ import annotations


def max_area(heights: list[int]) -> tuple[int, int, int]:
    """(area, i, j) with 1-based bars i < j holding the most water. Moving the shorter side inward is safe: every
    pair it skips is bounded by that shorter bar and a smaller width."""
    i, j = 0, len(heights) - 1
    best = (0, 1, 2)
    while i < j:
        area = (j - i) * min(heights[i], heights[j])
        if area > best[0]:
            best = (area, i + 1, j + 1)
        if heights[i] <= heights[j]:
            i += 1
        else:
            j -= 1
    return best
