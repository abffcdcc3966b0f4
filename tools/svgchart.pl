#!/usr/bin/env perl
#
# tools/svgchart.pl - line chart (SVG) of one table of `apps/speed --csv`:
# one line per implementation, x = size, y = a numeric column.
# Core Perl only.
#
#   perl tools/svgchart.pl --table poly1305 [--y cyc_per_unit] [--logx]
#        [--logy] [--title T] [--xlabel L] [--ylabel L] [--note TEXT]
#        [--width 760] [--height 440] speed.csv > chart.svg
#
# The CSV header names the columns (table,size,size_unit,impl,...); rows of
# other tables are ignored, as are negative y values (not measured).
# Also reads icount-style CSV with the same column names.
#
use strict;
use warnings;
use Getopt::Long;
use POSIX ();

my %o = (table => '', y => 'cyc_per_unit', logx => 0, logy => 0, title => '',
         xlabel => '', ylabel => '', note => '', width => 760, height => 440);
GetOptions(\%o, 'table=s', 'y=s', 'logx', 'logy', 'title=s', 'xlabel=s',
           'ylabel=s', 'note=s', 'width=i', 'height=i')
    or die "usage: svgchart.pl --table NAME [options] speed.csv > out.svg\n";
die "svgchart.pl: --table is required\n" if $o{table} eq '';

# ---- read ------------------------------------------------------------------------
my (@cols, %series, @order, $size_unit, $per);
while (my $line = <>) {
    chomp $line;
    next if $line =~ /^\s*$/;
    my @f = split /,/, $line, -1;
    if ($f[0] eq 'table') { @cols = @f; next }
    die "svgchart.pl: no CSV header line\n" unless @cols;
    my %r;
    @r{@cols} = @f;
    next unless $r{table} eq $o{table};
    die "svgchart.pl: no column '$o{y}'\n" unless exists $r{ $o{y} };
    my ($x, $y) = ($r{size}, $r{ $o{y} });
    next unless defined $y && $y =~ /^[\d.eE+-]+$/ && $y > 0 && $x > 0;
    push @order, $r{impl} unless exists $series{ $r{impl} };
    push @{ $series{ $r{impl} } }, [$x, $y];
    $size_unit //= $r{size_unit};
    $per //= $r{per};
}
die "svgchart.pl: no data for table '$o{table}'\n" unless @order;

# ---- scales ------------------------------------------------------------------------
my @all = map { @$_ } values %series;
my ($xmin, $xmax) = minmax(map { $_->[0] } @all);
my ($ymin, $ymax) = minmax(map { $_->[1] } @all);
$ymin = 0 unless $o{logy};

sub minmax {
    my ($lo, $hi) = ($_[0], $_[0]);
    for (@_) { $lo = $_ if $_ < $lo; $hi = $_ if $_ > $hi }
    return ($lo, $hi);
}

# Tick values: powers of 2/10 on log axes, 1-2-5 steps on linear ones.
sub ticks {
    my ($lo, $hi, $log, $base) = @_;
    my @t;
    if ($log) {
        # the axis runs from the power at or below lo to the one at or above hi
        my $v = $base ** POSIX::floor(log($lo) / log($base) + 1e-9);
        my $top = $base ** POSIX::ceil(log($hi) / log($base) - 1e-9);
        $top *= $base if $top <= $v;
        my $decades = log($top / $v) / log($base);
        for (my $p = $v; $p <= $top * 1.0001; $p *= $base) {
            push @t, $p;
            if ($base == 10 && $decades <= 2 && $p < $top / 1.0001) {
                push @t, 2 * $p, 5 * $p;
            }
        }
        return ($v, $top, sort { $a <=> $b } @t);
    }
    my $span = ($hi - $lo) || 1;
    my $raw = $span / 6;
    my $mag = 10 ** int(log($raw) / log(10) - ($raw < 1 ? 1 : 0));
    my ($step) = grep { $_ >= $raw } map { $_ * $mag } 1, 2, 5, 10;
    my $start = $step * int($lo / $step);
    my $end = $step * int($hi / $step + 0.9999);
    for (my $v = $start; $v <= $end + $step / 2; $v += $step) { push @t, $v }
    return ($start, $end, @t);
}

my $xbase = ($o{logx} && $xmin >= 1 && int($xmin) == $xmin && ($xmin & ($xmin - 1)) == 0) ? 2 : 10;
my ($x0, $x1, @xt) = ticks($xmin, $xmax, $o{logx}, $xbase);
my ($y0, $y1, @yt) = ticks($ymin, $ymax, $o{logy}, 10);
if ($o{logx} && $xbase == 2 && @xt > 9) {       # thin out: every other power
    my $k = 0;
    @xt = grep { $k++ % 2 == 0 } @xt;
}

my ($W, $H) = ($o{width}, $o{height});
my ($L, $R, $T, $B) = (78, 190, 44, 58);        # margins (legend on the right)
my ($pw, $ph) = ($W - $L - $R, $H - $T - $B);

sub sx {
    my ($v) = @_;
    my $f = $o{logx} ? (log($v) - log($x0)) / ((log($x1) - log($x0)) || 1)
                     : ($v - $x0) / (($x1 - $x0) || 1);
    return $L + $f * $pw;
}

sub sy {
    my ($v) = @_;
    my $f = $o{logy} ? (log($v) - log($y0)) / ((log($y1) - log($y0)) || 1)
                     : ($v - $y0) / (($y1 - $y0) || 1);
    return $T + $ph - $f * $ph;
}

sub num {
    my ($v) = @_;
    return sprintf('%gG', $v / 1e9) if $v >= 1e9;
    return sprintf('%gM', $v / 1e6) if $v >= 1e6;
    return sprintf('%gk', $v / 1e3) if $v >= 1e4;
    return $v == int($v) ? sprintf('%d', $v) : sprintf('%.3g', $v);
}

sub esc {
    my ($s) = @_;
    $s =~ s/&/&amp;/g;
    $s =~ s/</&lt;/g;
    $s =~ s/>/&gt;/g;
    return $s;
}

# ---- draw --------------------------------------------------------------------------
# Colour-blind-safe palette (Okabe & Ito, 2008) plus greys; dashes for
# peers so that "ours" and "theirs" separate at a glance.
my @palette = ('#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00',
               '#56B4E9', '#000000', '#999999', '#F0E442', '#882255');
my $title = $o{title} ne '' ? $o{title} : "$o{table}: $o{y}";
my $xlabel = $o{xlabel} ne '' ? $o{xlabel} : 'size' . ($size_unit ? " ($size_unit)" : '');
my $ylabel = $o{ylabel} ne '' ? $o{ylabel} : $o{y} . ($per ? " (per $per)" : '');

my @svg;
push @svg, qq(<svg xmlns="http://www.w3.org/2000/svg" width="$W" height="$H" viewBox="0 0 $W $H" font-family="sans-serif" font-size="12">);
push @svg, qq(<rect x="0" y="0" width="$W" height="$H" fill="#ffffff"/>);
push @svg, sprintf(qq(<text x="%d" y="24" font-size="15" font-weight="bold">%s</text>), $L, esc($title));
for my $v (@yt) {
    next if $v < $y0 || $v > $y1 * 1.0001;
    my $y = sy($v);
    push @svg, sprintf(qq(<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e0e0e0"/>), $L, $y, $L + $pw, $y);
    push @svg, sprintf(qq(<text x="%d" y="%.1f" text-anchor="end">%s</text>), $L - 6, $y + 4, num($v));
}
for my $v (@xt) {
    my $x = sx($v);
    push @svg, sprintf(qq(<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e0e0e0"/>), $x, $T, $x, $T + $ph);
    push @svg, sprintf(qq(<text x="%.1f" y="%d" text-anchor="middle">%s</text>), $x, $T + $ph + 18, num($v));
}
push @svg, sprintf(qq(<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333333"/>), $L, $T, $pw, $ph);
push @svg, sprintf(qq(<text x="%.1f" y="%d" text-anchor="middle">%s</text>), $L + $pw / 2, $H - 20, esc($xlabel . ($o{logx} ? ', log scale' : '')));
push @svg, sprintf(qq(<text transform="translate(18,%.1f) rotate(-90)" text-anchor="middle">%s</text>), $T + $ph / 2, esc($ylabel . ($o{logy} ? ', log scale' : '')));

my $i = 0;
for my $impl (@order) {
    my $col = $palette[$i % @palette];
    my @pts = sort { $a->[0] <=> $b->[0] } @{ $series{$impl} };
    my $peer = $impl =~ /^(openssl|sodium|gmp|libsodium|peer)/;
    my $dash = $peer ? ' stroke-dasharray="6,4"' : '';
    my $path = join ' ', map { sprintf '%.1f,%.1f', sx($_->[0]), sy($_->[1]) } @pts;
    push @svg, qq(<polyline fill="none" stroke="$col" stroke-width="2"$dash points="$path"/>);
    push @svg, sprintf(qq(<circle cx="%.1f" cy="%.1f" r="3" fill="$col"><title>%s %s: %s</title></circle>),
                       sx($_->[0]), sy($_->[1]), esc($impl), num($_->[0]), num($_->[1])) for @pts;
    my $ly = $T + 10 + 20 * $i;
    push @svg, sprintf(qq(<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="$col" stroke-width="2"$dash/>),
                       $L + $pw + 14, $ly, $L + $pw + 40, $ly);
    push @svg, sprintf(qq(<text x="%d" y="%d">%s</text>), $L + $pw + 46, $ly + 4, esc($impl));
    $i++;
}
push @svg, sprintf(qq(<text x="%d" y="%d" font-size="10" fill="#555555">%s</text>), $L, $H - 4, esc($o{note}))
    if $o{note} ne '';
push @svg, '</svg>';
print join("\n", @svg), "\n";
