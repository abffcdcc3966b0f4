#!/usr/bin/env perl
#
# tools/mca.pl - llvm-mca cycle estimates for the inner loops of one build:
# the regions marked "# LLVM-MCA-BEGIN name" / "# LLVM-MCA-END" in our
# generated assembly, and the innermost loops of the C references as the
# compiler emits them at the build's flags.  Called by tools/mca.sh
# (`make mca`); prints a markdown section and writes it to --out.
#
#   perl tools/mca.pl --cc CC --cflags "CPPFLAGS CFLAGS" --src SRCDIR \
#        [--target T] [--row NAME] [--out FILE] [--iterations 200] asm/X.S...
#
# Each region is cut out into a file of its own (with the assembler mode
# directives in force at that point: .syntax, .arm/.thumb, .fpu, .arch,
# .set), so a core that cannot take one region (NEON on a Cortex-M) only
# loses that cell.  The generated .S is run through the cross compiler's
# preprocessor first (#if __ARM_ARCH etc.).
#
# Work per iteration, for the derived cycles/byte or cycles/limb column:
# a line "# LLVM-MCA-UNITS <n> <bytes|limbs>" right after the BEGIN line
# states it; otherwise the table %known_units below, else only cycles per
# iteration are shown.  C loops: Poly1305 blocks 16 bytes, word loops 1
# limb (gcc -O2 does not unroll them).
#
# Pitfalls handled: gcc's ARM output is made with -masm-syntax-unified;
# ".module arch=" is removed from gcc's MIPS output; MIPS loop ends include
# the branch delay slot.  Numeric local labels and push/pop inside a
# region break llvm-mca: keep them out of marked regions.
#
use strict;
use warnings;
use File::Temp qw(tempdir);
use File::Basename qw(dirname);
use Cwd qw(abs_path);
use Getopt::Long;

my %o = (cc => 'cc', cflags => '', src => '.', target => '', row => '',
         out => '', iterations => 200);
GetOptions(\%o, 'cc=s', 'cflags=s', 'src=s', 'target=s', 'row=s', 'out=s',
           'iterations=i') or die "mca.pl: bad options\n";
my @asm_files = @ARGV;
my $tmp = tempdir(CLEANUP => 1);

# ---- which machine -----------------------------------------------------------
my $machine = `$o{cc} $o{cflags} -dumpmachine 2>/dev/null` // '';
chomp $machine;
my $cflags = $o{cflags};
my ($arch, $triple, @cores);
my $mca19 = 'llvm-mca-19';
my $mca22 = (grep { -x "$_/llvm-mca-22" } split /:/, $ENV{PATH} // '') ? 'llvm-mca-22' : '';
my $big = `echo | $o{cc} $cflags -dM -E - 2>/dev/null`;
my $is_eb = $big =~ /__MIPSEB__|__ARMEB__/;
if ($machine =~ /^arm/) {
    $arch = 'arm';
    my $thumb = $cflags =~ /-mthumb/;
    $triple = ($thumb ? 'thumbv7a' : 'armv7a') . '-linux-gnueabihf';
    # Cortex-M cores execute Thumb only: they get a column for Thumb builds.
    @cores = map { [$mca19, $_] } qw(cortex-a9 cortex-a57 swift),
                                  ($thumb ? qw(cortex-m4 cortex-m7) : ()), 'cortex-r52';
} elsif ($machine =~ /^aarch64/) {
    $arch = 'aarch64';
    $triple = 'aarch64-linux-gnu';
    @cores = map { [$mca19, $_] } qw(cortex-a53 cortex-a55 cortex-a57 cortex-a72 neoverse-n1);
} elsif ($machine =~ /^mips/) {
    $arch = 'mips';
    my $r6 = $big =~ /__mips_isa_rev 6/;
    my $is64 = $big =~ /__mips64\b/ || $big =~ /_MIPS_SIM _ABI64|_ABIN32/;
    my $n32 = $big =~ /_MIPS_SIM _ABIN32/ || $cflags =~ /-mabi=n32/;
    my $el = $is_eb ? '' : 'el';
    if ($r6) {
        $triple = $is64 ? "mipsisa64r6$el-linux-gnuabi64" : "mipsisa32r6$el-linux-gnu";
        @cores = ([$mca19, $is64 ? 'mips64r6' : 'mips32r6']);
    } elsif ($is64) {
        $triple = "mips64$el-linux-gnuabi" . ($n32 ? 'n32' : '64');
        @cores = ([$mca19, 'mips64r2']);
    } else {
        $triple = "mips$el-linux-gnu";
        @cores = ([$mca19, 'mips32r2']);
    }
    # I6400 (in-order MIPS64R6) is modelled from llvm-22 on: r6 code only.
    push @cores, [$mca22, 'i6400'] if $mca22 && $r6;
} elsif ($machine =~ /^x86_64/) {
    $arch = 'x86_64';
    $triple = 'x86_64-linux-gnu';
    @cores = map { [$mca19, $_] } qw(skylake icelake-server znver3);
} else {
    die "mca.pl: no llvm-mca setup for '$machine'\n";
}

# ---- work per iteration of known regions (module authors: prefer the
# "# LLVM-MCA-UNITS n unit" line next to the BEGIN marker) -------------------
my @known_units = (
    [qr/^poly1305_(blocks|scalar|blocks32|blocks64)/, 16, 'bytes'],
    [qr/^armv8_mont_4x/, 4, 'limbs'],
    [qr/^armv8_mont_1x/, 1, 'limbs'],
    [qr/^mont_inner_/, 1, 'limbs'],
    [qr/^bn_mul_mont_inner$/, 2, 'limbs'],           # mips-mont: two limbs, fused a*b and m*n
    [qr/^bn_/, 4, 'limbs'],          # armv4/armv8/x86_64 word and x86_64 mont loops: 4 limbs
);

sub units_for {
    my ($name, $declared) = @_;
    return @$declared if $declared;
    return (16 * $1, 'bytes') if $name =~ /^poly1305_vec(\d+)$/;   # x86_64: L blocks
    for my $k (@known_units) {
        return ($k->[1], $k->[2]) if $name =~ $k->[0];
    }
    return ();
}

# ---- cutting regions -----------------------------------------------------------
my $mode_re = qr/^\s*\.(syntax|arm|thumb|code|fpu|arch|arch_extension|set|cpu|eabi_attribute|abicalls|nan|module|option|intel_syntax|att_syntax)\b/;

# Write one region into its own file with the mode directives seen so far.
sub write_region {
    my ($file, $modes, $body) = @_;
    open my $fh, '>', $file or die "$file: $!\n";
    print $fh "$_\n" for @$modes;
    print $fh "\t.text\n";
    print $fh "# LLVM-MCA-BEGIN r\n";
    print $fh "$_\n" for @$body;
    print $fh "# LLVM-MCA-END\n";
    close $fh;
}

# Marked regions of a preprocessed .s: list of {name, file, units}.
sub marked_regions {
    my ($s, $tag) = @_;
    my (@modes, @out, $cur);
    my $n = 0;
    for my $line (split /\n/, $s) {
        if ($line =~ /^\s*[#@\/]+\s*LLVM-MCA-BEGIN\s*(\S*)/) {
            $cur = { name => $1 || "region$n", body => [], units => undef };
            next;
        }
        if ($cur && $line =~ /^\s*[#@\/]+\s*LLVM-MCA-UNITS\s+([\d.]+)\s+(\w+)/) {
            $cur->{units} = [$1, $2];
            next;
        }
        if ($cur && $line =~ /^\s*[#@\/]+\s*LLVM-MCA-END/) {
            my $f = sprintf '%s/%s-%d.s', $tmp, $tag, $n++;
            write_region($f, [@modes], $cur->{body});
            push @out, { name => $cur->{name}, file => $f,
                         units => [units_for($cur->{name}, $cur->{units})] };
            undef $cur;
            next;
        }
        if ($line =~ $mode_re) {
            next if $line =~ /^\s*\.module\s+arch=/;
            next if $line =~ /^\s*\.set\s+(push|pop)\b/;
            push @modes, $line;
        }
        push @{ $cur->{body} }, $line if $cur;
    }
    return @out;
}

# Inner loops of the functions of a compiler-generated .s.  A loop is a
# label and a later branch back to it inside the same function.  When some
# loops of a function multiply, the innermost of those are kept (the
# carry chain, not the zeroing, copying or byte-loading loops); otherwise
# the innermost loops.
sub c_loops {
    my ($s, $tag, $want) = @_;
    my @lines = split /\n/, $s;
    my (@modes, @out, $fn, $start);
    my %modes_at;
    for my $i (0 .. $#lines) {
        my $l = $lines[$i];
        if ($l =~ $mode_re && $l !~ /^\s*\.module\s+arch=/ && $l !~ /^\s*\.set\s+(push|pop)\b/) {
            push @modes, $l;
        }
        if ($l =~ /^([A-Za-z_]\w*):/ && $want->{$1}) {
            ($fn, $start) = ($1, $i);
            $modes_at{$fn} = [@modes];
            next;
        }
        next unless defined $fn;
        next unless $l =~ /^\s*\.(size|end)\s+\Q$fn\E\b/;
        # function body: $start+1 .. $i-1
        my (%label_at, @loops);
        for my $k ($start + 1 .. $i - 1) {
            $label_at{$1} = $k if $lines[$k] =~ /^(\.L\w+|\$L\w+):/;
        }
        for my $k ($start + 1 .. $i - 1) {
            next if $lines[$k] =~ /^\s*[.#]/ || $lines[$k] =~ /^\S+:/;
            for my $lab ($lines[$k] =~ /(\.L\w+|\$L\w+)/g) {
                my $at = $label_at{$lab};
                push @loops, [$at, $k] if defined $at && $at < $k;
            }
        }
        my $mulre = qr/^\s*(\w*mul\w*|\w*madd\w*|mla\w*|umaal\w*|[su]mlal\w*)\s/i;
        my $contains = sub {            # loop A strictly contains loop B
            my ($A, $B) = @_;
            return $A != $B && $B->[0] > $A->[0] && $B->[1] <= $A->[1];
        };
        my @mul = grep {
            my ($a, $b) = @$_;
            grep { $lines[$_] =~ $mulre } $a .. $b
        } @loops;
        my @pool = @mul ? @mul : @loops;
        my @inner = grep {
            my $L = $_;
            !grep { $contains->($L, $_) } @pool
        } @pool;
        my $k = 0;
        for my $L (sort { $a->[0] <=> $b->[0] } @inner) {
            my ($a, $b) = @$L;
            $b++ if $arch eq 'mips';            # the delay slot
            my @body = grep { !/^\s*\.(loc|cfi_\w+|p2align|align|balign)\b/ }
                       @lines[$a + 1 .. $b];
            my $f = sprintf '%s/%s-%s-%d.s', $tmp, $tag, $fn, $k;
            write_region($f, $modes_at{$fn}, \@body);
            my $nested = grep { $contains->($L, $_) } @loops;
            push @out, { name => (@inner > 1 ? "$fn.loop" . ($k + 1) : $fn)
                                 . ($nested ? ' (inner loops counted as straight line)' : ''),
                         file => $f, units => [@{ $want->{$fn} }], fn => $fn };
            $k++;
        }
        undef $fn;
    }
    return @out;
}

# ---- running llvm-mca --------------------------------------------------------
# Cycles per iteration, or a reason string: 'n/s' when the core model
# cannot schedule an instruction (ldm/stm/push/pop on LLVM's Cortex-A9
# model), '–' when the core does not have the instructions.
sub mca_cycles {
    my ($tool, $cpu, $file) = @_;
    return '–' unless $tool;
    my $out = `$tool -mtriple=$triple -mcpu=$cpu -iterations=$o{iterations} $file 2>&1`;
    if ($? != 0) {
        return 'n/s' if $out =~ /unable to resolve scheduling class/;
        return '–';
    }
    my ($it) = $out =~ /^Iterations:\s+(\d+)/m;
    my ($cy) = $out =~ /^Total Cycles:\s+(\d+)/m;
    return undef unless $it && defined $cy;
    return $cy / $it;
}

# ---- collect regions -----------------------------------------------------------
my @rows;      # [source, region-hash]
for my $S (@asm_files) {
    my $pp = `$o{cc} $cflags -E -P -x assembler-with-cpp $S 2>/dev/null`;
    if ($? != 0) { warn "mca.pl: cannot preprocess $S\n"; next }
    (my $base = $S) =~ s{.*/}{};
    push @rows, map { ["$base", $_] } marked_regions($pp, $base);
}

my %c_refs = (
    'crypto/poly1305/poly1305_ref26.c' => { poly1305_ref26_blocks => [16, 'bytes'] },
    'crypto/poly1305/poly1305_ref64.c' => { poly1305_ref64_blocks => [16, 'bytes'] },
    'crypto/bn/bn_mont.c'  => { bn_mul_mont_c => [1, 'limbs'] },
    'crypto/bn/bn_words.c' => { map { ("bn_${_}_words_c" => [1, 'limbs']) }
                                qw(mul_add mul mul_sub sqr add sub cnd_add cnd_sub) },
);
my $cs_flags = $cflags . ($arch eq 'arm' ? ' -masm-syntax-unified' : '');
for my $src (sort keys %c_refs) {
    next unless -f "$o{src}/$src";
    my $s = `$o{cc} $cs_flags -S -o - $o{src}/$src 2>/dev/null`;
    if ($? != 0 || $s eq '') { warn "mca.pl: cannot compile $src\n"; next }
    (my $base = $src) =~ s{.*/}{};
    push @rows, map { ["$base (C, gcc)", $_] } c_loops($s, $base, $c_refs{$src});
}

# ---- table -----------------------------------------------------------------------
my @md;
my $title = $o{row} ne '' ? $o{row} : $o{target};
push @md, "## $title", '';
# the source folder is shown as $(SRCDIR), so the file does not depend on
# where the tree was checked out
my $srcdir = abs_path(dirname(abs_path($0)) . '/..');
(my $shown = $cflags) =~ s/\Q$srcdir\E(?=\/)/\$(SRCDIR)/g;
push @md, "- compiler `$o{cc}` ($machine), flags `$shown`";
push @md, "- llvm-mca `-mtriple=$triple`, " . scalar(@cores) . " cores, $o{iterations} iterations per region";
push @md, '- cell: cycles per loop iteration (cycles per byte or limb); – = the core lacks these instructions (or this instruction set state); n/s = LLVM\'s model cannot schedule an instruction of the region (ldm/stm/push/pop on the Cortex-A9 model)';
push @md, '';
push @md, '| source | region | work/iter | ' . join(' | ', map { $_->[1] } @cores) . ' |';
push @md, '|---|---|---|' . join('', map { '---:|' } @cores);
my %mont_sum;
# One llvm-mca run per core over all regions (one file, one region each);
# only when the model rejects something there is a run per region.
my %cyc;       # core -> region index -> cycles per iteration
for my $c (@cores) {
    next unless $c->[0];
    my $all = "$tmp/all-$c->[1].s";
    open my $fh, '>', $all or die "$all: $!\n";
    for my $i (0 .. $#rows) {
        open my $in, '<', $rows[$i][1]{file} or die "$rows[$i][1]{file}: $!\n";
        local $/;
        (my $text = <$in>) =~ s/^# LLVM-MCA-BEGIN r$/# LLVM-MCA-BEGIN r$i/m;
        print $fh $text;
        close $in;
    }
    close $fh;
    my $out = `$c->[0] -mtriple=$triple -mcpu=$c->[1] -iterations=$o{iterations} $all 2>&1`;
    next if $? != 0;
    while ($out =~ /^\[\d+\] Code Region - r(\d+)\s*\n(.*?)(?=^\[\d+\] Code Region|\z)/msg) {
        my ($i, $blk) = ($1, $2);
        my ($it) = $blk =~ /^Iterations:\s+(\d+)/m;
        my ($cy) = $blk =~ /^Total Cycles:\s+(\d+)/m;
        $cyc{ $c->[1] }{$i} = $cy / $it if $it && defined $cy;
    }
}

for my $ri (0 .. $#rows) {
    my ($src, $reg) = @{ $rows[$ri] };
    my @u = @{ $reg->{units} };
    my @cells;
    for my $c (@cores) {
        my $cy = $cyc{ $c->[1] }{$ri} // mca_cycles($c->[0], $c->[1], $reg->{file});
        if (!defined $cy || $cy !~ /^[\d.]+$/) { push @cells, $cy // '–'; next }
        $mont_sum{ $c->[1] } += $cy if ($reg->{fn} // '') eq 'bn_mul_mont_c';
        push @cells, @u ? sprintf('%.2f (%.2f)', $cy, $cy / $u[0]) : sprintf('%.2f', $cy);
    }
    my $work = @u ? "$u[0] $u[1]" : '?';
    push @md, "| $src | $reg->{name} | $work | " . join(' | ', @cells) . ' |';
}
if (%mont_sum) {
    push @md, '| bn_mont.c (C, gcc) | bn_mul_mont_c both loops = one limb of a*b[i] and m*n | 1 limb | '
        . join(' | ', map { defined $mont_sum{ $_->[1] } ? sprintf('%.2f', $mont_sum{ $_->[1] }) : '–' } @cores) . ' |';
}
push @md, '';
my $text = join("\n", @md) . "\n";
print $text;
if ($o{out} ne '') {
    open my $fh, '>', $o{out} or die "$o{out}: $!\n";
    print $fh $text;
    close $fh;
}
