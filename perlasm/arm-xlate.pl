#!/usr/bin/env perl
#
# perlasm/arm-xlate.pl - turn the GNU-as (ELF) text written by the ARM and
# AArch64 perlasm modules into the assembler dialect of one flavour.
#
#   perl arm-xlate.pl FLAVOUR [OUT.S] < in.S
#
# Flavours (table %FLAVOURS below):
#   linux32, void    GNU as, ELF, 32-bit ARM: pass-through
#   linux64          GNU as, ELF, AArch64: pass-through
#   ios32            Mach-O, 32-bit ARM
#   ios64            Mach-O, AArch64
# The ELF flavours need no translator at all: the modules print them
# directly (so that one .pl copied alone into a folder still works), and
# run this script only for Mach-O.  Given an ELF flavour it copies its
# input unchanged.
#
# Rules for module authors (what this script relies on):
#  1. Write plain GNU as for ELF, one directive or instruction per line.
#     No pseudo-ops of ours: what the ELF flavours assemble is exactly what
#     the module prints.  C-preprocessor lines (the .S is always compiled
#     through cpp) and lines starting with @ pass unchanged.
#  2. A module looks for this script beside itself first, then in its
#     tree's perlasm/ (../../../perlasm/ from crypto/<area>/asm/), and
#     only for the Mach-O flavours.
#  3. Functions: ".globl NAME", ".type NAME, %function", label, and
#     ".size NAME, .-NAME".  Mach-O: every name declared by .globl,
#     .global or .extern gets a "_" prefix wherever it appears; .type
#     becomes ".thumb_func NAME" under #ifdef __thumb2__ (32-bit) or is
#     dropped (64-bit); .size is dropped.
#  4. Local labels are ".Lname"; Mach-O spells them "Lname".
#  5. 32-bit external data: reach it only through a literal
#     ".word SYM - .Llit [+ off]" ("ldr rX, [rLit, rX]" with rLit = .Llit
#     then loads the word), with one more load under #ifdef __APPLE__ and
#     off 0 on Mach-O: there the literal points at a non-lazy pointer to
#     SYM.  Declare SYM with ".hidden SYM" after the code, under the same
#     #if as its uses: on Mach-O the non-lazy pointer goes out there.  SYM
#     may be a cpp macro (ASMCRYPT_CAPWORD): Mach-O's "_" is pasted by cpp
#     (ASMCRYPT_MACHO_SYM, defined at the top of the output).
#  6. 64-bit external data: ".hidden SYM", "adrp xN, SYM" and
#     "[xN, #:lo12:SYM]" / "add xN, xN, #:lo12:SYM"; Mach-O gets
#     SYM@PAGE / SYM@PAGEOFF and ".private_extern _SYM".
#  7. ".section .rodata" becomes ".const" on Mach-O; the
#     ".section .note.GNU-stack" line is dropped there, and so is ".fpu"
#     (32-bit; Apple's assembler has no .fpu: NEON comes from -arch).
#
use strict;
use warnings;

my %FLAVOURS = (
    linux32 => { abi => 'elf',   bits => 32 },
    void    => { abi => 'elf',   bits => 32 },
    ios32   => { abi => 'macho', bits => 32 },
    linux64 => { abi => 'elf',   bits => 64 },
    ios64   => { abi => 'macho', bits => 64 },
);

my $flavour = shift @ARGV;
$flavour = 'void' if !defined $flavour || $flavour eq '';
my $output  = shift @ARGV;
my $F = $FLAVOURS{$flavour}
    or die "arm-xlate.pl: unknown flavour '$flavour' (known: "
         . join(', ', sort keys %FLAVOURS) . ")\n";
my $macho = $F->{abi} eq 'macho';

if (defined $output) {
    open STDOUT, '>', $output or die "arm-xlate.pl: can't write $output: $!\n";
}

my %globals;        # names declared global: "_" prefix on Mach-O
my %extdata;        # 32-bit: external data named by .hidden (rule 5)

# Mach-O's _SYM for SYM, a name or a cpp macro (rule 5): pasted by cpp
# with the macro that heads the output.
sub macho_sym { my ($n) = @_; return "ASMCRYPT_MACHO_SYM($n)"; }
my $MACHO_SYM_DEF = <<'___';
#ifndef ASMCRYPT_MACHO_SYM
# define ASMCRYPT_MACHO_SYM_(s) _##s
# define ASMCRYPT_MACHO_SYM(s) ASMCRYPT_MACHO_SYM_(s)
#endif
___

sub translate_line {
    my ($line) = @_;

    if ($line =~ /^\s*\.type\s+(\w+)\s*,\s*%function/ && $F->{bits} == 32) {
        my $s = $globals{$1} ? "_$1" : $1;
        return "#ifdef __thumb2__\n\t.thumb_func\t$s\n#endif\n";
    }
    return '' if $line =~ /^\s*\.(type|size)\b/;
    return '' if $line =~ /^\s*\.section\s+\.note\.GNU-stack/;
    return '' if $line =~ /^\s*\.fpu\b/ && $F->{bits} == 32;
    if ($line =~ /^\s*\.hidden\s+(\w+)\s*$/ && $extdata{$1}) {
        # Here, under the module's own #if, also the non-lazy pointer.
        my $n = $1;
        my $s = macho_sym($n);
        return "\t.private_extern\t$s\n"
             . "\t.section\t__DATA,__nl_symbol_ptr,non_lazy_symbol_pointers\n"
             . "\t.align\t2\nL_$n\$non_lazy_ptr:\n\t.indirect_symbol\t$s\n"
             . "\t.long\t0\n\t.text\n";
    }
    $line =~ s/^\s*\.hidden\b/\t.private_extern/;
    $line =~ s/^(\s*)\.section\s+\.rodata\b.*$/$1.const/;
    # Preprocessor lines and comments keep their text.
    return $line if $line =~ /^\s*(#|\@)/;
    # "SYM - label" with SYM external data cannot be assembled for
    # Mach-O: point at a non-lazy pointer instead (rule 5).
    if ($line =~ /^\s*\.(?:word|long)\s+(\w+)\s*-/ && $extdata{$1}) {
        my $n = $1;
        $line =~ s/\b$n\b/L_${n}\$non_lazy_ptr/;
        $line =~ s/(?<![\w.])\.L(\w+)/L$1/g;
        return $line;
    }
    $line = macho64_addr($line) if $F->{bits} == 64;
    $line =~ s/(?<![\w.])\.L(\w+)/L$1/g;
    if (%globals) {
        my $re = join '|', map { quotemeta } sort keys %globals;
        $line =~ s/(?<![\w.\$])($re)\b/_$1/g;
    }
    return $line;
}

# ios64: "adrp xN, SYM" / "[xN, #:lo12:SYM]" (ELF) become SYM@PAGE /
# SYM@PAGEOFF (Mach-O); the global-symbol prefix is added afterwards.
sub macho64_addr {
    my ($line) = @_;
    $line =~ s/#?:lo12:(\w+)/$1\@PAGEOFF/g;
    $line =~ s/^(\s*adrp\s+\w+\s*,\s*)(\w+)(\s*)$/$1$2\@PAGE$3/;
    return $line;
}

my @lines = <STDIN>;
if (!$macho) {
    print @lines;
    close STDOUT or die "arm-xlate.pl: error closing output: $!\n";
    exit 0;
}

# Globals must be known before their first use (a branch may precede the
# function's declaration), so read everything first.
my %defined;
for (@lines) {
    $defined{$1} = 1 if /^\s*(\w+):/;
}
for (@lines) {
    next unless /^\s*\.(globl|global|extern|hidden)\s+(\w+)/;
    my ($dir, $n) = ($1, $2);
    if ($dir eq 'hidden' && $F->{bits} == 32 && !$defined{$n}) {
        $extdata{$n} = 1;
    } else {
        $globals{$n} = 1;
    }
}
print $MACHO_SYM_DEF if %extdata;
print translate_line($_) for @lines;

close STDOUT or die "arm-xlate.pl: error closing output: $!\n";
