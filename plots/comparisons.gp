# comparisons.gp: qsortbench chart 3, comparator calls / (n log2 n), machine-independent.
#
#   gnuplot -d -c comparisons.gp DATA OUTPUT FORMAT TITLE SUBTITLE SIZES NELEMS PATTERNS ALGORITHMS
#
# DATA      rows "x ratio failed series width pattern", one block (index) per (size s, count j)
#           at index (s-1) * ncounts + (j-1), as src/analysis/plot.c writes them
#           (qsb_plot_write_comparisons); series indexes ALGORITHMS (0 = baseline)
# OUTPUT    the file to write; FORMAT is png or svg
# TITLE     the chart's title; SUBTITLE the machine and seed line under it
# SIZES, NELEMS, PATTERNS, ALGORITHMS   space-separated words: panel rows, panel columns,
#           groups of bars, bars of a group
#
# A panel per (element size, element count), a group of bars per pattern, a bar per algorithm;
# the dotted line at 1 is n log2 n itself. Failed cells have no bar and a red cross at zero.

data = ARG1
nsizes = words(ARG6)
ncounts = words(ARG7)
npatterns = words(ARG8)
nalgorithms = words(ARG9)

PW = 90 + npatterns * (nalgorithms * 16 + 24)
PW = PW < 380 ? 380 : PW
KEY = 250.0
W = 80 + KEY + ncounts * PW
W = W < 1000 ? 1000 : (W > 3800 ? 3800 : W)
H = 125 + nsizes * 320
if (ARG3 eq "svg") {
    set terminal svg size W,H noenhanced font "sans,11" background rgb "white"
} else {
    set terminal pngcairo size W,H noenhanced font "sans,11" background rgb "white"
}
set output ARG2

stats data using 3 nooutput
anyfailed = STATS_max > 0 ? 1 : 0

set multiplot layout nsizes,ncounts margins 80.0/W, 1.0 - KEY/W, 80.0/H, 1.0 - 100.0/H \
    spacing 50.0/W, 95.0/H
set label 1 ARG4 at screen 0.5, screen 1.0 - 20.0/H center font ",15"
set label 2 ARG5 at screen 0.5, screen 1.0 - 44.0/H center font ",10"
set key at screen 1.0 - (KEY - 15.0)/W, screen 1.0 - 100.0/H left top vertical Left reverse \
    samplen 2 spacing 1.2 width 1

set style fill solid 0.85 border lc "black"
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set grid ytics linecolor "gray70" linewidth 0.5 dashtype 3
set xrange [-0.6 : npatterns - 0.4]
set xtics scale 0 ()
if (npatterns > 4) { set xtics rotate by 30 right }
do for [p = 1:npatterns] {
    set xtics add (word(ARG8, p) p - 1)
}

do for [s = 1:nsizes] {
    do for [j = 1:ncounts] {
        key = s == 1 && j == 1
        block = (s - 1) * ncounts + (j - 1)
        set title sprintf("n = %s, %s-byte elements", word(ARG7, j), word(ARG6, s))
        if (j == 1) { set ylabel "calls / (n log2 n)" } else { unset ylabel }
        plot for [a = 0:nalgorithms - 1] data index block using ($4 == a ? $1 : NaN):2:5 \
                 with boxes linecolor (a + 1) title (key ? word(ARG9, a + 1) : ""), \
             1 with lines dashtype 3 linecolor "gray30" title (key ? "n log2 n" : ""), \
             for [k = 1:anyfailed] data index block using ($3 == 1 ? $1 : NaN):(0) \
                 with points pointtype 2 pointsize 2.5 linewidth 2.5 linecolor "red" \
                 title (key ? "failed verification (no bar)" : "")
        unset label 1
        unset label 2
    }
}
unset multiplot
