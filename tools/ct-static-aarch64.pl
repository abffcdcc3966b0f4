# tools/ct-static-aarch64.pl - AArch64 (A64, incl. AdvSIMD) model for
# tools/ct-static.pl.  Loaded with `do`; defines package CT::Arch.
#
# Flags: f:N f:Z f:C f:V, one value each.  wN and xN are one register;
# bN/hN/sN/dN/qN/vN.T are one vector register vN.  xzr/wzr are public
# zeros.  A register set by adr/adrp/ldr-literal points at the module's
# own data or the capability word: loads through it are public.
use strict;
use warnings;

package CT::Arch;

sub default_abi { return 'aapcs64' }

sub strip_comment { return CT::strip_comment($_[0], '//') }

sub reg {
    my ($r) = @_;
    $r = lc $r;
    return 'zr' if $r eq 'xzr' || $r eq 'wzr';
    return 'sp' if $r eq 'sp' || $r eq 'wsp';
    return "r$2" if $r =~ /^([xw])(\d+)$/ && $2 <= 30;
    return 'r29' if $r eq 'fp';
    return 'r30' if $r eq 'lr';
    return "v$2" if $r =~ /^([bhsdqv])(\d+)(\.\w+)?(\[\d+\])?$/ && $2 <= 31;
    return undef;
}

sub split_ops { return CT::split_ops($_[0], '[{', ']}') }


sub parse_op {
    my ($o) = @_;
    my %op = (text => $o);
    if ($o =~ /^\{(.*)\}(\[\d+\])?$/) {                      # vector list
        my @r;
        for my $p (split /,/, $1) {
            $p =~ s/^\s+|\s+$//g;
            if ($p =~ /^(v\d+)\.\w+\s*-\s*v(\d+)/) {
                my ($a) = $1 =~ /(\d+)/;
                push @r, map { "v$_" } $a .. $2;
                next;
            }
            my $c = reg($p) // return { bad => "list element $p" };
            push @r, $c;
        }
        @op{qw(t regs)} = ('list', \@r);
        return \%op;
    }
    if ($o =~ /^\[\s*([^\],]+)\s*(?:,\s*([^\]]+))?\]\s*(!?)$/) {   # memory
        my ($b, $rest, $wb) = ($1, $2, $3);
        my $br = reg($b) // return { bad => "base $b" };
        @op{qw(t base wb)} = ('mem', $br, $wb ? 1 : 0);
        if (defined $rest) {
            my @p = split_ops($rest);
            if ($p[0] =~ /\@PAGEOFF$/ || ($p[0] =~ /^[A-Za-z_.]/ && !defined reg($p[0]))) {
                $op{symlo} = 1;                     # Mach-O sym@PAGEOFF
            } elsif ($p[0] =~ /^#|^[-+]?\d/ || $p[0] =~ /^:lo12:/) {
                my $d = $p[0];
                $op{disp} = $d =~ /:lo12:/ ? undef : CT::num($d);
                $op{symlo} = 1 if $d =~ /:lo12:/;
            } else {
                $op{index} = reg($p[0]) // return { bad => "index $p[0]" };
            }
        } else { $op{disp} = 0 }
        return \%op;
    }
    if ($o =~ /^#|^[-+]?\d/) { @op{qw(t val)} = ('imm', CT::num($o)); return \%op }
    if ($o =~ /^(lsl|lsr|asr|ror|sxtw|uxtw|sxtx|uxtx|sxth|uxth|sxtb|uxtb|msl)\b/i) { $op{t} = 'shift'; return \%op }
    if (defined(my $r = reg($o))) { @op{qw(t reg)} = ('reg', $r); return \%op }
    if ($o =~ /^(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)$/i) { @op{qw(t cc)} = ('cond', lc $o); return \%op }
    if ($o =~ /^=?[A-Za-z_.][\w.\$+\-]*(\@\w+)?$/ || $o =~ /^:\w+:[\w.]+$/) { @op{qw(t name)} = ('sym', $o); return \%op }
    return { bad => "operand '$o'" };
}

sub parse {
    my ($text) = @_;
    my ($mn, $rest) = $text =~ /^(\S+)\s*(.*)$/;
    return { mn => lc $mn, ops => [map { parse_op($_) } split_ops($rest)] };
}

my %CCF = (eq => 'Z', ne => 'Z', cs => 'C', hs => 'C', cc => 'C', lo => 'C', mi => 'N', pl => 'N',
           vs => 'V', vc => 'V', hi => 'CZ', ls => 'CZ', ge => 'NV', lt => 'NV', gt => 'ZNV', le => 'ZNV', al => '');
sub ccv {
    my ($st, $cc) = @_;
    return undef unless exists $CCF{$cc};
    return main::tval(map { $st->{"f:$_"} // '0|' } split //, $CCF{$cc});
}

sub rv {
    my ($st, $op) = @_;
    return '0|' if $op->{t} eq 'imm' || $op->{t} eq 'shift' || $op->{t} eq 'cond';
    return '0|' if $op->{t} eq 'sym';
    return '0|' if $op->{t} eq 'reg' && $op->{reg} eq 'zr';
    return $st->{ $op->{reg} } // '0|' if $op->{t} eq 'reg';
    return main::tval(map { $st->{$_} // '0|' } @{ $op->{regs} }) if $op->{t} eq 'list';
    return '0|';
}
sub setr {
    my ($st, $op, $v) = @_;
    return if $op->{t} eq 'reg' && $op->{reg} eq 'zr';
    if ($op->{t} eq 'reg') {
        $st->{"d:$op->{reg}"} = "0|D:$main::CUR_I";
        # a lane insert (v0.d[1]) keeps the other lanes
        $v = main::tval($v, $st->{ $op->{reg} } // '0|') if $op->{text} =~ /\]$/;
        $st->{ $op->{reg} } = $v;
        return;
    }
    if ($op->{t} eq 'list') { $st->{$_} = main::tval($v) for @{ $op->{regs} }; return }
    main::error("cannot write $op->{text}");
}
sub flags { my ($st, $v) = @_; $st->{"f:$_"} = main::tval($v) for qw(N Z C V) }

sub init { return CT::entry_state($_[0], [map { "r$_" } 0 .. 7], 0, 8, sp => '0|S:0:0') }
sub data_insn { return undef }
sub after_return { return $_[0] }
sub external_call {
    my ($st) = @_;
    $st->{"r$_"} = '1|' for 0 .. 18;
    $st->{"v$_"} = '1|' for 0 .. 31;
    $st->{"f:$_"} = '1|' for qw(N Z C V);
}

# Address of a memory operand (leak on secret base/index); applies
# pre-index writeback.  Returns the address value.
sub maddr {
    my ($st, $m) = @_;
    my $b = $m->{base} eq 'zr' ? '0|' : $st->{ $m->{base} } // '0|';
    if (main::taint($b)) { main::leak("secret base register in address $m->{text}"); return '1|' }
    my $a;
    if (defined $m->{index}) {
        my $x = $st->{ $m->{index} } // '0|';
        if (main::taint($x)) { main::leak("secret index register in address $m->{text}"); return '1|' }
        $a = main::offset_ptr($b, undef);
    } elsif ($m->{symlo}) {
        $a = '0|A:=sym:?';
    } else {
        $a = main::offset_ptr($b, $m->{disp});
    }
    if ($m->{wb}) { $st->{ $m->{base} } = $a; $st->{"d:$m->{base}"} = "0|D:$main::CUR_I" }
    return $a;
}
sub postinc {
    my ($st, $m, $o) = @_;          # [xN], #imm or [xN], xM post-index
    return unless $o;
    my $d = $o->{t} eq 'imm' ? $o->{val} : undef;
    main::leak("secret post-index register") if $o->{t} eq 'reg' && main::taint(rv($st, $o));
    $st->{ $m->{base} } = main::offset_ptr($st->{ $m->{base} } // '0|', $d);
    $st->{"d:$m->{base}"} = "0|D:$main::CUR_I";
}

my %ALU = map { $_ => 1 } qw(add adds sub subs adc adcs sbc sbcs and ands orr eor bic bics orn eon
    mul umulh smulh madd msub umaddl smaddl umsubl smsubl umull smull mneg lsl lsr asr ror extr
    ubfx sbfx ubfiz sbfiz bfi bfxil bfm ubfm sbfm sxtw uxtw sxth uxth sxtb uxtb mov movz movn movk mvn neg negs
    ngc ngcs clz cls rev rev16 rev32 rbit adr adrp cmp cmn tst ccmp ccmn udiv sdiv
    csel csinc csinv csneg cset csetm cinc cinv cneg);
my $SIMD = qr/^(add|addp|addv|sub|mul|mla|mls|umlal2?|umlsl2?|umull2?|smull2?|smlal2?|shl|ushr|sshr|usra|ssra|
    sli|sri|shrn2?|rshrn2?|xtn2?|uxtl2?|sxtl2?|ushll2?|sshll2?|dup|ins|umov|smov|movi|mvni|fmov|trn1|trn2|zip1|zip2|
    uzp1|uzp2|ext|cmeq|cmhi|cmhs|cmgt|cmge|bit|bif|bsl|and|orr|eor|bic|orn|not|mov|neg|abs|rev64|tbl|tbx|ushl|sshl|
    addhn2?|raddhn2?|uaddw2?|uaddl2?|usubl2?|uaddlp|uadalp|pmull2?)$/x;

sub step {
    my ($p, $st, $text) = @_;
    my ($mn, @o) = ($p->{mn}, @{ $p->{ops} });
    for (@o) { if ($_->{bad}) { main::error("cannot parse $_->{bad}"); return { kind => 'stop' } } }
    return { kind => 'fall' } if $mn =~ /^(nop|hint|bti|paciasp|autiasp|pacibsp|autibsp|isb|dmb|dsb|yield|csdb|sb)$/;
    return { kind => 'stop' } if $mn =~ /^(brk|udf|hlt)$/;

    # control flow
    if ($mn eq 'b') { return { kind => 'jmp', target => $o[0]{name} } }
    if ($mn eq 'adrp' || $mn eq 'adr') { setr($st, $o[0], '0|A:=sym:?'); return { kind => 'fall' } }
    if ($mn =~ /^b\.?(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)$/) {
        my $c = ccv($st, $1) // return unknown($mn);
        main::leak("conditional branch on secret flags") if main::taint($c);
        return { kind => 'cjmp', target => $o[0]{name} };
    }
    if ($mn =~ /^cbn?z$/) {
        main::leak("$mn on a secret register") if main::taint(rv($st, $o[0]));
        return { kind => 'cjmp', target => $o[1]{name} };
    }
    if ($mn =~ /^tbn?z$/) {
        main::leak("$mn on a secret register") if main::taint(rv($st, $o[0]));
        return { kind => 'cjmp', target => $o[2]{name} };
    }
    if ($mn eq 'bl') { $st->{r30} = '0|'; return { kind => 'call', target => $o[0]{name} } }
    if ($mn eq 'ret') { return { kind => 'ret' } }
    if ($mn eq 'br' || $mn eq 'blr') {
        main::leak("indirect $mn through a secret register") if main::taint(rv($st, $o[0]));
        main::error("indirect $mn (the checker cannot follow it)");
        return { kind => 'stop' };
    }

    # loads and stores
    if ($mn =~ /^(ld|st)(r|rb|rh|rsb|rsh|rsw|ur|urb|urh|ursw|p|np|psw|xr|axr|ar|lr)$/) {
        my $isld = $1 eq 'ld';
        my $pair = $2 =~ /^n?p/;
        my $nreg = $pair ? 2 : 1;
        my $m = $o[$nreg];
        if (!$m || $m->{t} ne 'mem') {
            if ($isld && $m && $m->{t} eq 'sym') {          # ldr x0, .Llit / =sym: a constant or an address
                setr($st, $o[0], '0|A:=sym:?');
                return { kind => 'fall' };
            }
            return unknown("$mn (operands)");
        }
        my $a = maddr($st, $m);
        my $w = ($o[0]{text} =~ /^[wsb]/i) ? 4 : ($o[0]{text} =~ /^q/i ? 16 : 8);
        $w = 1 if $mn =~ /b$/;
        $w = 2 if $mn =~ /h$/;
        for my $k (0 .. $nreg - 1) {
            my $ak = main::offset_ptr($a, $k * $w);
            if ($isld) { setr($st, $o[$k], main::load($st, $ak, 0, $w)) }
            else { main::store($st, $ak, rv($st, $o[$k]), $w) }
        }
        postinc($st, $m, $o[$nreg + 1]);
        return { kind => 'fall' };
    }
    if ($mn =~ /^(ld|st)([1-4])r?$/) {
        my $isld = $1 eq 'ld';
        my ($l, $m) = @o;
        return unknown("$mn (operands)") unless $l->{t} eq 'list' && $m->{t} eq 'mem';
        my $a = maddr($st, $m);
        my $size = 16 * @{ $l->{regs} };
        if ($isld) {
            my $v = main::load($st, $a, 0, $size);
            $v = main::tval($v, map { $st->{$_} // '0|' } @{ $l->{regs} }) if $l->{text} =~ /\]$/;   # lane loads merge
            $st->{$_} = main::tval($v) for @{ $l->{regs} };
        } else { main::store($st, $a, rv($st, $l), $size) }
        postinc($st, $m, $o[2]);
        return { kind => 'fall' };
    }

    # scalar data processing
    my $vec = grep { $_->{t} eq 'reg' && $_->{reg} =~ /^v/ } @o;
    if (!$vec && $ALU{$mn}) { return alu($mn, \@o, $st) }
    if ($mn =~ $SIMD || ($vec && $ALU{$mn})) {
        my ($d, @s) = @o;
        my @in = map { rv($st, $_) } @s;
        # accumulating / inserting forms read the destination
        push @in, rv($st, $d) if $mn =~ /^(umlal2?|umlsl2?|smlal2?|mla|mls|usra|ssra|sli|sri|bit|bif|bsl|ins|shrn2|rshrn2|xtn2|addhn2|raddhn2|uadalp|tbx)$/
                                 || ($mn eq 'mov' && $d->{text} =~ /\]$/);
        my $zero = ($mn eq 'eor' || $mn eq 'sub') && @s == 2 && $s[0]{t} eq 'reg' && $s[1]{t} eq 'reg' && $s[0]{reg} eq $s[1]{reg};
        if ($mn =~ /^tb[lx]$/) {
            main::leak("$mn with a secret index (a lookup)") if main::taint(rv($st, $s[-1]));
        }
        setr($st, $d, $zero ? '0|' : main::tval(@in));
        return { kind => 'fall' };
    }
    return unknown($mn);
}

sub alu {
    my ($mn, $o, $st) = @_;
    my @o = @$o;
    my $d = $o[0];
    if ($mn =~ /^(cmp|cmn|tst)$/) { flags($st, main::tval(map { rv($st, $_) } @o)); return { kind => 'fall' } }
    if ($mn =~ /^(ccmp|ccmn)$/) {
        my $c = ccv($st, $o[-1]{cc} // 'al') // '1|';
        flags($st, main::tval(rv($st, $o[0]), rv($st, $o[1]), $c, map { $st->{"f:$_"} // '0|' } qw(N Z C V)));
        return { kind => 'fall' };
    }
    if ($mn =~ /^(csel|csinc|csinv|csneg|cset|csetm|cinc|cinv|cneg)$/) {
        my ($cop) = grep { $_->{t} eq 'cond' } @o;
        my $c = ccv($st, $cop->{cc}) // return unknown($mn);
        setr($st, $d, main::tval($c, map { rv($st, $_) } @o[1 .. $#o]));
        return { kind => 'fall' };
    }
    if ($mn eq 'adr' || $mn eq 'adrp') { setr($st, $d, '0|A:=sym:?'); return { kind => 'fall' } }
    my @s = @o[1 .. $#o];
    my @in = map { rv($st, $_) } @s;
    push @in, rv($st, $d) if $mn =~ /^(movk|bfi|bfxil|bfm)$/;
    push @in, $st->{'f:C'} // '0|' if $mn =~ /^(adc|adcs|sbc|sbcs|ngc|ngcs)$/;
    my $v = main::tval(@in);
    if ($mn =~ /^(udiv|sdiv)$/ && main::taint($v)) { main::leak("$mn with a secret operand (variable latency)") }
    my $same = @s == 2 && $s[0]{t} eq 'reg' && $s[1]{t} eq 'reg' && $s[0]{reg} eq $s[1]{reg};
    $v = '0|' if $same && $mn =~ /^(eor|sub|subs|bic|bics)$/ && $s[0]{reg} ne 'zr';
    # pointers: mov copies; add/sub of a constant moves; add of a public register loses the offset
    if (!main::taint($v)) {
        if ($mn eq 'mov' && @s == 1 && $s[0]{t} eq 'reg') { $v = rv($st, $s[0]) }
        elsif ($mn =~ /^(add|sub)s?$/ && @s >= 2 && $s[0]{t} eq 'reg' && main::origin(rv($st, $s[0])) ne '') {
            my $b = rv($st, $s[0]);
            if ($s[1]{t} eq 'imm' && @s == 2 && defined $s[1]{val}) {
                $v = main::offset_ptr($b, $mn =~ /^add/ ? $s[1]{val} : -$s[1]{val});
            } elsif ($mn eq 'add' && $s[1]{t} eq 'reg' && $d->{reg} ne 'sp') {
                my $def = main::origin($st->{"d:$s[1]{reg}"} // '0|D:E');
                my $sh = @s > 2 ? $s[2]{text} : '';
                $sh =~ s/\s+//g;
                $v = main::offset_sym($b, "$s[1]{reg}\@$def$sh");
            } elsif ($d->{reg} eq 'sp' && $s[1]{t} ne 'imm') {
                $v = main::new_frame("var", $b);        # a variable-size frame
            } else {
                $v = main::offset_ptr($b, undef);
            }
        } elsif ($mn eq 'and' && $d->{reg} eq 'sp') { $v = main::new_frame("al", rv($st, $s[0])) }
    }
    setr($st, $d, $v);
    flags($st, $v) if $mn =~ /^(adds|subs|adcs|sbcs|ands|bics|negs|ngcs)$/;
    return { kind => 'fall' };
}

sub unknown {
    my ($mn) = @_;
    main::error("unknown instruction '$mn'");
    return { kind => 'stop' };
}

1;
