set terminal pngcairo size 900,540 noenhanced
set grid
set key top left
set xlabel 'footprint'
set logscale x 2
set output 'docs/img/at/bandwidth_vs_footprint.png'
set ylabel 'GB/s'
set title 'store bandwidth against footprint'
plot 'docs/img/at/sweep_footprint.dat' using 1:2 with linespoints title 'stored', '' using 1:3 with linespoints title 'DRAM write'
set output 'docs/img/at/latency_vs_footprint.png'
set ylabel 'cycles'
set title 'store latency against footprint'
plot 'docs/img/at/sweep_footprint.dat' using 1:4 with linespoints title 'p50', '' using 1:5 with linespoints title 'p99'
