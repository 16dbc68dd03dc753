# scaling.gp: qsortbench chart 2, the cost per element against the element count.
#
#   gnuplot -d -c scaling.gp DATA OUTPUT FORMAT TITLE SUBTITLE METRIC SIZES PATTERNS ALGORITHMS
#
# DATA      as src/analysis/plot.c writes it (qsb_plot_write_scaling). Index 0: rows "size level
#           elements", the L1d/L2/L3 capacity in elements of that size (NaN when unknown).
#           Index 1 + ((s-1) * npatterns + (p-1)) * nalgorithms + a: rows "nelem per_element
#           failed" of size s, pattern p, algorithm a (0 = baseline)
# OUTPUT    the file to write; FORMAT is png or svg
# TITLE     the chart's title; SUBTITLE the machine and seed line under it
# METRIC    cycles, ns or comparisons: the unit of the y axis
# SIZES, PATTERNS, ALGORITHMS   space-separated words: panel rows, panel columns, lines
#
# A panel per (element size, pattern), a line per algorithm, the element count on a log axis,
# a dashed mark where each cache level holds that many elements of the panel's size. Failed
# cells are left out of their line and marked with a red cross at the foot of the panel.

data = ARG1
nsizes = words(ARG7)
npatterns = words(ARG8)
nalgorithms = words(ARG9)
nseries = nsizes * npatterns * nalgorithms

KEY = 290.0
W = 85 + KEY + npatterns * 330
W = W < 1000 ? 1000 : (W > 3800 ? 3800 : W)
H = 125 + nsizes * 300
if (ARG3 eq "svg") {
    set terminal svg size W,H noenhanced font "sans,11" background rgb "white"
} else {
    set terminal pngcairo size W,H noenhanced font "sans,11" background rgb "white"
}
set output ARG2

stats data index 1:nseries using 1:3 nooutput
xmin = STATS_min_x / 1.5
xmax = STATS_max_x * 1.5
anyfailed = STATS_max_y > 0 ? 1 : 0
stats data index 0 using (valid(3) ? 1 : 0) nooutput
anymarks = STATS_max > 0 ? 1 : 0

unit = ARG6 eq "comparisons" ? "comparator calls" : ARG6
# Earlier lines are drawn wider, so a line hidden under a later one (system = msort on an
# old glibc) still shows at its edges.
width(a) = 1.5 + 1.2 * (nalgorithms - 1 - a)

set multiplot layout nsizes,npatterns margins 85.0/W, 1.0 - KEY/W, 60.0/H, 1.0 - 100.0/H \
    spacing 55.0/W, 70.0/H
set label 1 ARG4 at screen 0.5, screen 1.0 - 20.0/H center font ",15"
set label 2 ARG5 at screen 0.5, screen 1.0 - 44.0/H center font ",10"
set key at screen 1.0 - (KEY - 15.0)/W, screen 1.0 - 100.0/H left top vertical Left reverse \
    samplen 2 spacing 1.2 width 1

stats data index 1 using 1 nooutput
ncounts = STATS_records

# The measured counts are the x tics, turned when there are many.
set logscale x
if (ncounts > 4) { set xtics rotate by 30 right }
set xrange [xmin:xmax]
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set y2range [0:1]
unset y2tics
set grid xtics ytics linecolor "gray70" linewidth 0.5 dashtype 3

do for [s = 1:nsizes] {
    size = word(ARG7, s) + 0
    do for [p = 1:npatterns] {
        key = s == 1 && p == 1
        first = 1 + ((s - 1) * npatterns + (p - 1)) * nalgorithms
        set title sprintf("%s, %d-byte elements", word(ARG8, p), size)
        if (p == 1) { set ylabel sprintf("%s per element", unit) } else { unset ylabel }
        if (s == nsizes) { set xlabel "element count (log scale)" } else { unset xlabel }
        plot for [a = 0:nalgorithms - 1] data index (first + a) using 1:2 \
                 with linespoints linecolor (a + 1) linewidth width(a) pointtype 7 \
                 pointsize 0.4 + 0.25 * width(a) \
                 title (key ? word(ARG9, a + 1) : ""), \
             for [k = 1:anymarks] data index 0 using ($1 == size ? $3 : NaN):(1) axes x1y2 \
                 with impulses dashtype 2 linecolor "gray40" \
                 title (key ? "cache capacity (L1d, L2, L3)" : ""), \
             for [k = 1:anymarks] data index 0 using ($1 == size && $3 < xmax / 2 ? $3 : NaN) \
                 :(0.96):2 axes x1y2 with labels left offset 0.4, 0 textcolor "gray30" notitle, \
             for [k = 1:anymarks] data index 0 using ($1 == size && $3 >= xmax / 2 ? $3 : NaN) \
                 :(0.96):2 axes x1y2 with labels right offset -0.4, 0 textcolor "gray30" notitle, \
             for [a = 0:nalgorithms - 1] for [k = 1:anyfailed] data index (first + a) \
                 using 1:($3 == 1 ? 0.04 : NaN) axes x1y2 \
                 with points pointtype 2 pointsize 2.5 linewidth 2.5 linecolor "red" \
                 title (key && a == 0 ? "failed verification (left out)" : ""), \
             data index first using 1:(0):xtic(sprintf("%.0f", $1)) \
                 with points pointtype -1 notitle
        unset label 1
        unset label 2
    }
}
unset multiplot
