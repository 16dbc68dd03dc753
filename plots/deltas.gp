# deltas.gp: qsortbench chart 1, the paired delta of one candidate against the baseline.
#
#   gnuplot -d -c deltas.gp DATA OUTPUT FORMAT TITLE SUBTITLE METRIC SIZES NELEMS PATTERNS
#
# DATA      rows "x delta_pct delta_lo delta_hi failed series width noisy pattern", one block
#           (index) per element size, as src/analysis/plot.c writes them (qsb_plot_write_deltas)
# OUTPUT    the file to write; FORMAT is png or svg
# TITLE     the chart's title; SUBTITLE the machine and seed line under it
# METRIC    cycles, ns or comparisons: what the delta is a delta of
# SIZES, NELEMS, PATTERNS   space-separated words naming the panels, the bars of a group
#           (data column "series" indexes NELEMS) and the groups
#           A word of NELEMS that starts with '=' is shown as it is, without "n = " (a fleet
#           chart: "=MACHINE" words, groups "pattern/count": src/analysis/fleet_view.c)
#
# A panel per element size, a group of bars per pattern, a bar per element count, the 95%
# interval of the delta as an error bar. Failed cells have no bar and a red cross on the zero
# line. Text arrives as ARGn strings and is never evaluated.

data = ARG1
nsizes = words(ARG7)
ncounts = words(ARG8)
npatterns = words(ARG9)
barname(w) = w[1:1] eq "=" ? w[2:*] : "n = " . w

KEY = 250.0
W = 100 + KEY + npatterns * (ncounts * 30 + 40)
W = W < 1100 ? 1100 : (W > 2800 ? 2800 : W)
H = 105 + nsizes * 330
if (ARG3 eq "svg") {
    set terminal svg size W,H noenhanced font "sans,11" background rgb "white"
} else {
    set terminal pngcairo size W,H noenhanced font "sans,11" background rgb "white"
}
set output ARG2

# Failed cells, noisy cells and intervals get a key entry only when there are some.
stats data using 5:8 nooutput
anyfailed = STATS_max_x > 0 ? 1 : 0
anynoisy = STATS_max_y > 0 ? 1 : 0
stats data using (valid(3) && valid(4) ? 1 : 0) nooutput
anyinterval = STATS_max > 0 ? 1 : 0

if (ARG6 eq "comparisons") {
    set ylabel "delta of comparator calls, %\n(positive = candidate makes more calls)"
} else {
    set ylabel sprintf("delta of %s, %%\n(positive = candidate slower)", ARG6)
}

set multiplot layout nsizes,1 margins 100.0/W, 1.0 - KEY/W, 40.0/H, 1.0 - 100.0/H \
    spacing 0, 70.0/H
set label 1 ARG4 at screen 0.5, screen 1.0 - 20.0/H center font ",15"
set label 2 ARG5 at screen 0.5, screen 1.0 - 44.0/H center font ",10"
set key at screen 1.0 - (KEY - 15.0)/W, screen 1.0 - 100.0/H left top vertical Left reverse \
    samplen 2 spacing 1.2 width 1

set style fill solid 0.85 border lc "black"
set xzeroaxis linetype -1 linewidth 1.5
set grid ytics linecolor "gray70" linewidth 0.5 dashtype 3
set autoscale yfix  # the padding below and above comes from the offsets, not from tics
set offsets 0, 0, graph 0.06, graph 0.06
set xrange [-0.6 : npatterns - 0.4]
set xtics scale 0 ()
do for [p = 1:npatterns] {
    set xtics add (word(ARG9, p) p - 1)
}

do for [s = 1:nsizes] {
    set title sprintf("element size %s bytes", word(ARG7, s))
    key = s == 1
    plot for [j = 0:ncounts - 1] data index (s - 1) using ($6 == j ? $1 : NaN):2:7 \
             with boxes linecolor (j + 1) title (key ? barname(word(ARG8, j + 1)) : ""), \
         for [k = 1:anynoisy] data index (s - 1) using ($8 == 1 ? $1 : NaN):2:7 \
             with boxes fillstyle transparent pattern 4 border linecolor "black" \
             linecolor "black" title (key ? "noisy (precision not met)" : ""), \
         for [k = 1:anyinterval] data index (s - 1) using 1:3:(0):($4 - $3) \
             with vectors heads size screen 0.004,90 linecolor "black" \
             title (key ? "95% interval" : ""), \
         for [k = 1:anyfailed] data index (s - 1) using ($5 == 1 ? $1 : NaN):(0) \
             with points pointtype 2 pointsize 2.5 linewidth 2.5 linecolor "red" \
             title (key ? "failed verification (no bar)" : ""), \
         data index (s - 1) using 1:(0) with points pointtype -1 notitle
    unset label 1
    unset label 2
}
unset multiplot
